// svc_recommend_sdk: which SDK(s) fit a described stack. A stack we cannot place is an answer, not an error: it
// lists the five SDKs and says that any other runtime can call the client API directly under the same rules. An SDK
// without a package (iOS, Flutter) is recommended as what works: the client HTTP API called directly, in order.
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
    next_tools: ['svc_scaffold_install', 'svc_recommend_validation_for_platforms', 'svc_scaffold_full'],
  };
}
