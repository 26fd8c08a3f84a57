// svc_recommend_sdk: which SDK(s) fit a described stack. A stack we cannot place is an answer, not an error: it
// lists the five SDKs and says that any other runtime can call the client API directly under the same rules. An SDK
// without a package (iOS, Flutter) is recommended as what works: the client HTTP API called directly, in order.
// For Swift, Kotlin and Flutter stacks the answer also offers `sdk_less`: attribution by store offer codes with no
// client code.
import { matchFirstField } from './sdk-selection.js';
import { getSdk, listSdks, type SdkEntry } from './registry.js';

const FIELDS = ['stack', 'sdk', 'sdkId', 'framework', 'hostStack', 'platform', 'language'];

export interface SdkSummary {
  sdk_id: string;
  name: string;
  version: string;
  language: string;
  hosts: string;
}

function summarizeSdk(sdk: SdkEntry): SdkSummary {
  return { sdk_id: sdk.id, name: sdk.name, version: sdk.version, language: sdk.language, hosts: sdk.hosts };
}

/** The native and cross-platform mobile stacks, where the store's own offer codes can attribute with no client code. */
const STORE_STACKS: ReadonlySet<string> = new Set(['ios', 'android', 'flutter']);

/**
 * Attribution with no client code of ours (issue 38): the stores (or the subscription provider) report every
 * purchase to the server, and a purchase that redeemed a creator's store offer code names the creator. Offered beside
 * the SDK for Swift, Kotlin and Flutter stacks, whose SDKs are the client API called by hand (iOS, Flutter) or the
 * Android package: an app can start with no code at all and add the SDK for links and install attribution later.
 */
const SDK_LESS = {
  summary:
    "No client code: store offer codes. The store's server notifications (or the subscription provider's webhook) " +
    "report every purchase; one that redeemed a creator's offer code is credited to that creator. Links, installs " +
    'and typed creator codes still need the SDK.',
  steps: [
    'Switch the platform to store-direct after the store credentials pass the green-check (or wire the subscription provider webhook).',
    "Point the store's server notifications at this app (App Store Server Notifications V2; Play real-time developer notifications).",
    'App Store: make one offer per creator in App Store Connect (Apple sends only the ' +
      "offer's reference name) and register that name for the creator.",
    'Google Play: register the offer id with its product and base plan, or an offer tag used by that creator alone.',
    'Give the creator the redemption link of their custom code; integration status shows sdk_less_attribution ready.',
  ],
  tools: ['svc_activate_store_direct', 'svc_setup_subprovider', 'svc_add_offer_code', 'svc_integration_status'],
};

export function recommendSdk(input: Record<string, unknown>) {
  const { text, matches } = matchFirstField(input, FIELDS);
  const recommendations = matches.map((m) => {
    const sdk = getSdk(m.sdk);
    return {
      ...summarizeSdk(sdk),
      available: sdk.available,
      package: sdk.package?.name ?? null,
      install_command: sdk.package?.install_command ?? null,
      instead: sdk.unavailable?.instead ?? null,
      steps: sdk.unavailable?.steps ?? [],
      matched_alias: m.alias,
      runtime: sdk.id === 'web' ? (m.runtime ?? 'browser') : null,
      notes: m.note ? [m.note] : [],
    };
  });
  const message =
    recommendations.length === 0
      ? `No SDK matches '${text}'. Pick one of the choices; a runtime none of them covers can call the client API ` +
        '({base_url}/api/sdk/*) directly, following the client-side rules (svc_explain_contract).'
      : recommendations
          .map((r) => (r.available ? `Use ${r.name} ${r.version} (${r.package}).` : `${r.name}: no package exists; ${r.instead}`))
          .join(' ');
  return {
    query: text,
    matched: recommendations.length > 0,
    recommendations,
    choices: listSdks().map(summarizeSdk),
    message,
    sdk_less: recommendations.some((r) => STORE_STACKS.has(r.sdk_id)) ? SDK_LESS : null,
    next_tools: ['svc_scaffold_install', 'svc_recommend_validation_for_platforms', 'svc_scaffold_full'],
  };
}
