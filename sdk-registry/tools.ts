// The registry's tools as the MCP tool server consumes them: the spec's "tools with no account endpoint" (all but
// svc_setup_subprovider, which talks to the provider and lives elsewhere), plus the `svc://sdk/{platform}`
// resource. Every run() is pure and synchronous; bad input throws RegistryInputError with the field list.
import { explainContract } from './contract-topics.js';
import { checkInput } from './input.js';
import { RegistryInputError } from './input-error.js';
import { recommendSdk } from './recommend-sdk.js';
import { recommendValidation, recommendValidationForPlatforms, singlePlatform, type ValidationQuestion } from './recommend-validation.js';
import { CONTRACT_VERSION, listSdks, SDK_IDS, VERSION_NOTES, type SdkEntry } from './registry.js';
import { scaffold, type ScaffoldOptionsInput } from './scaffold/scaffold.js';
import { SCAFFOLD_KINDS, type ScaffoldKind } from './scaffold/types.js';
import { resolveOneSdk } from './sdk-selection.js';
import { inputSchemas, outputSchemas } from './tool-schemas.js';

export { RegistryInputError } from './input-error.js';
export { CONTRACT_VERSION } from './registry.js';

export interface RegistryToolContext {
  baseUrl: string;
}
export interface RegistryTool {
  name: string;
  title: string;
  /** What it does, when to use it, what to call next. */
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  run(input: Record<string, unknown>, ctx: RegistryToolContext): Record<string, unknown>;
}

const sdkResourceUri = (sdk: SdkEntry) => `svc://sdk/${sdk.id}`;

/** JSON of the MCP resource `svc://sdk/{platform}`; `platform` is an SDK id or an alias (swift, expo, ...). */
export function sdkResource(platform: string): Record<string, unknown> {
  if (typeof platform !== 'string' || platform.trim() === '')
    throw new RegistryInputError('platform is required', [{ loc: ['platform'], msg: 'Field required', type: 'missing' }]);
  const { sdk } = resolveOneSdk({ sdk: platform });
  return {
    uri: sdkResourceUri(sdk),
    contract_version: CONTRACT_VERSION,
    ...sdk,
    client_base_url: '{base_url}/api',
    version_notes: VERSION_NOTES,
    // No package, no scaffold (the tools refuse it): the unavailable.steps are the way instead.
    scaffold_tools: sdk.available ? SCAFFOLD_KINDS.map((kind) => `svc_scaffold_${kind}`) : [],
  };
}

export function sdkResourceUris(): string[] {
  return listSdks().map(sdkResourceUri);
}

interface ScaffoldInput extends Record<string, unknown> {
  sdk_key?: string;
  options?: ScaffoldOptionsInput;
}

const SCAFFOLD_TEXT: Record<ScaffoldKind, { title: string; what: string }> = {
  install: {
    title: 'Scaffold: install the SDK',
    what: "the dependency snippet and the config file (public SDK key, this server's client base URL, autoCapture per the reporting path)",
  },
  init: { title: 'Scaffold: initialize at start-up', what: "the start-up call that initializes the SDK from the install step's config" },
  attribution: {
    title: 'Scaffold: check attribution and identify',
    what:
      'the launch-time attribution check, identify after sign-in and, on ' +
      'the subscription-provider path, the svc_code / svc_referral attributes',
  },
  manual_code: {
    title: 'Scaffold: manual referral code entry',
    what:
      'a "Have a code?" handler (trim, uppercase, applyCode, messages per ' +
      'error_code) and the premium gate (entitlement OR checkAccess().hasAccess)',
  },
  report_purchase: {
    title: 'Scaffold: purchase reporting',
    what:
      'what the app does about purchases on its validation path: provider attributes ' +
      'before the purchase, auto capture back-sync, or its own reportPurchase with the stored code',
  },
  full: { title: 'Scaffold: the whole integration', what: 'every step in one file, with the local storage keys the SDK keeps' },
};

function scaffoldTool(kind: ScaffoldKind): RegistryTool {
  const name = `svc_scaffold_${kind}`;
  return {
    name,
    title: SCAFFOLD_TEXT[kind].title,
    description:
      `Returns code for ${SCAFFOLD_TEXT[kind].what}, for one SDK ` +
      `(${SDK_IDS.join(', ')}; aliases such as expo, swiftui, kotlin, flutter, next.js accepted). ` +
      'Options: store_direct, reports_purchases_itself (autoCapture false), entitlement, ' +
      "runtime (web). Pass the app's public SDK key (it_...) as sdk_key or get a placeholder. " +
      'The code follows the client-side rules of the wire contract and ' +
      'points at this server. Use svc_recommend_sdk first when the stack is unclear.',
    inputSchema: inputSchemas.scaffold,
    outputSchema: outputSchemas.scaffold,
    run: (input, ctx) => {
      const args = checkInput<ScaffoldInput>(name, inputSchemas.scaffold, input);
      const { sdk, match } = resolveOneSdk(args);
      return scaffold(kind, { sdk, sdkKey: args.sdk_key, options: args.options ?? {}, aliasRuntime: match.runtime }, ctx.baseUrl);
    },
  };
}

const listSdksTool: RegistryTool = {
  name: 'svc_list_sdks',
  title: 'List the client SDKs',
  description:
    'Lists the five client SDKs (React Native, iOS, Android, Flutter, web) with versions, availability (iOS and Flutter have no package: ' +
    'their rows say what to do instead, the client HTTP API in order), ' +
    'packages with the entry to import and the repository, install commands, ' +
    'result-field casing and the local storage keys each keeps, and the wire contract version. Use it to pick an SDK; ' +
    'then svc_recommend_sdk for a described stack or svc_scaffold_install to start.',
  inputSchema: inputSchemas.listSdks,
  outputSchema: outputSchemas.listSdks,
  run: (input) => {
    checkInput('svc_list_sdks', inputSchemas.listSdks, input);
    return {
      contract_version: CONTRACT_VERSION,
      sdks: listSdks(),
      scaffold_kinds: [...SCAFFOLD_KINDS],
      resource_uris: sdkResourceUris(),
      next_tools: ['svc_recommend_sdk', 'svc_scaffold_install', 'svc_recommend_validation_for_platforms'],
    };
  },
};

const recommendSdkTool: RegistryTool = {
  name: 'svc_recommend_sdk',
  title: 'Recommend an SDK for a stack',
  description:
    'Maps a free-text stack ("Expo app", "SwiftUI", "flutter/dart", "Next.js in Capacitor") or the fields platform, hostStack, ' +
    'framework, language, sdkId to the SDK(s) to use, with install command and, for web, the init runtime. An unknown stack is ' +
    'answered with the list of choices, not an error. For Swift, Kotlin and Flutter stacks sdk_less also offers ' +
    "attribution with no client code: the store's notifications and a store offer code per creator. Next: " +
    'svc_scaffold_install or svc_scaffold_full, and svc_recommend_validation_for_platforms.',
  inputSchema: inputSchemas.recommendSdk,
  outputSchema: outputSchemas.recommendSdk,
  run: (input) => recommendSdk(checkInput('svc_recommend_sdk', inputSchemas.recommendSdk, input)),
};

const recommendValidationTool: RegistryTool = {
  name: 'svc_recommend_validation',
  title: 'Recommend the purchase-validation path for a platform',
  description:
    'For one platform (ios, android or web) says whether purchases should reach the service through the subscription ' +
    "provider's webhook or store-direct, why, and what each path needs (credentials, webhook, client code). The two paths are never " +
    'both used for one platform. For React Native or Flutter apps use svc_recommend_validation_for_platforms. Next: ' +
    'svc_setup_subprovider, or svc_get_credential_upload_link for store-direct.',
  inputSchema: inputSchemas.recommendValidation,
  outputSchema: outputSchemas.recommendValidation,
  run: (input, ctx) => {
    const args = checkInput<ValidationQuestion & { platform: string }>('svc_recommend_validation', inputSchemas.recommendValidation, input);
    return recommendValidation(singlePlatform(args.platform), args, ctx.baseUrl);
  },
};

const recommendValidationForPlatformsTool: RegistryTool = {
  name: 'svc_recommend_validation_for_platforms',
  title: 'Recommend purchase-validation paths for several platforms',
  description:
    'The same advice as svc_recommend_validation for several platforms at once (react-native and flutter expand to ios and ' +
    'android), with which platforms need the provider webhook and which need store credentials. Next: svc_setup_subprovider and/or ' +
    'svc_get_credential_upload_link, then svc_get_validation_status.',
  inputSchema: inputSchemas.recommendValidationForPlatforms,
  outputSchema: outputSchemas.recommendValidationForPlatforms,
  run: (input, ctx) => {
    const args = checkInput<ValidationQuestion & { platforms: string[] }>(
      'svc_recommend_validation_for_platforms',
      inputSchemas.recommendValidationForPlatforms,
      input,
    );
    return recommendValidationForPlatforms(args.platforms, args, ctx.baseUrl);
  },
};

const explainContractTool: RegistryTool = {
  name: 'svc_explain_contract',
  title: 'Explain a part of the wire contract',
  description:
    "States the wire contract's rules (server side and the client-side rules they pin) for one topic: attribution " +
    '(72 h link window, IP and device matching, manual codes), purchase (the two validation paths, processing order, store-direct), ' +
    'comp (free-access codes, seats and expiry checked on every access), dedup (events, identify, installs, webhooks, sent-set), ' +
    'rc-attributes (svc_code and svc_referral "true"). Use it before changing integration code; scaffolds apply these rules.',
  inputSchema: inputSchemas.explainContract,
  outputSchema: outputSchemas.explainContract,
  run: (input) => explainContract(checkInput<{ topic: string }>('svc_explain_contract', inputSchemas.explainContract, input).topic),
};

export const REGISTRY_TOOLS: readonly RegistryTool[] = [
  listSdksTool,
  recommendSdkTool,
  recommendValidationTool,
  recommendValidationForPlatformsTool,
  explainContractTool,
  ...SCAFFOLD_KINDS.map(scaffoldTool),
];
