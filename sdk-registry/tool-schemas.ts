// JSON Schemas (draft-07, ajv) of the registry tools' inputs and structured results. Outputs are closed
// (additionalProperties false) so a test catches a result that drifts from what the tool server advertises.
import { CONTRACT_TOPICS } from './contract-topics.js';
import { CONTRACT_VERSION, SDK_IDS } from './registry.js';
import { SCAFFOLD_KINDS } from './scaffold/types.js';
import { selectorProperties } from './sdk-selection.js';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const strings: Schema = { type: 'array', items: str };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** A closed object whose every listed property is required. */
function closed(properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

const platformText: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'ios, android or web (aliases such as swift, kotlin, next.js accepted)',
};
const validationHints: Record<string, Schema> = {
  uses_subscription_provider: { type: 'boolean', description: 'Whether the app uses a subscription provider; leave out when unknown.' },
  app_id: { type: 'string', minLength: 1, maxLength: 100, description: 'Fills the webhook URL; {app_id} otherwise.' },
};

export const inputSchemas = {
  listSdks: { type: 'object', additionalProperties: false, properties: {} },
  recommendSdk: {
    type: 'object',
    additionalProperties: false,
    properties: {
      stack: { type: 'string', maxLength: 500, description: 'Free text: "Expo app", "SwiftUI", "Next.js in Capacitor", ...' },
      ...selectorProperties,
    },
  },
  recommendValidation: {
    type: 'object',
    additionalProperties: false,
    required: ['platform'],
    properties: { platform: platformText, ...validationHints },
  },
  recommendValidationForPlatforms: {
    type: 'object',
    additionalProperties: false,
    required: ['platforms'],
    properties: { platforms: { type: 'array', minItems: 1, maxItems: 10, items: platformText }, ...validationHints },
  },
  explainContract: {
    type: 'object',
    additionalProperties: false,
    required: ['topic'],
    properties: { topic: { type: 'string', enum: [...CONTRACT_TOPICS] } },
  },
  scaffold: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...selectorProperties,
      sdk_key: {
        type: 'string',
        pattern: '^it_',
        maxLength: 200,
        description: "The app's public SDK key (it_...); a placeholder when left out.",
      },
      options: {
        type: 'object',
        additionalProperties: false,
        properties: {
          store_direct: { type: 'boolean', description: 'The platform validates purchases store-direct (no subscription provider).' },
          reports_purchases_itself: {
            type: 'boolean',
            description: 'The app calls reportPurchase itself (autoCapture false); implies store-direct.',
          },
          entitlement: {
            type: 'string',
            minLength: 1,
            maxLength: 100,
            description: 'Entitlement id of the premium gate (default premium).',
          },
          runtime: { type: 'string', enum: ['capacitor', 'cordova', 'twa', 'pwa', 'browser'], description: 'Web only: init runtime.' },
        },
      },
    },
  },
} satisfies Record<string, Schema>;

const sdkSummary = closed({ sdk_id: { enum: [...SDK_IDS] }, name: str, version: str, language: str, hosts: str });

const sdkEntrySchema: Schema = closed({
  id: { enum: [...SDK_IDS] },
  name: str,
  version: str,
  language: { enum: ['typescript', 'swift', 'kotlin', 'dart'] },
  available: { type: 'boolean' },
  package: nullable(
    closed({
      manager: { enum: ['npm', 'gradle'] },
      name: str,
      version: str,
      import_from: str,
      install_command: str,
      manifest_file: str,
      repository: nullable(str),
    }),
  ),
  unavailable: nullable(closed({ reason: str, instead: str, docs: str, steps: { type: 'array', items: str, minItems: 1 } })),
  init_platforms: { type: 'array', items: { enum: ['ios', 'android', 'web'] } },
  result_casing: { enum: ['snake_case', 'camelCase'] },
  storage: closed({
    medium: str,
    keys: { type: 'array', items: { type: 'string', pattern: '^@svc/' } },
    cleared_by_clear_attribution: strings,
    purchase_set_key: nullable(str),
  }),
  hosts: str,
});

const pathAdvice = closed({
  path: { enum: ['subprovider', 'store-direct'] },
  available: { type: 'boolean' },
  needs: strings,
  client_side: strings,
  tools: strings,
});
const validationAdvice = closed({
  platform: { enum: ['ios', 'android', 'web'] },
  recommended_path: { enum: ['subprovider', 'store-direct', null] },
  reason: str,
  question: nullable(str),
  rule: str,
  paths: { type: 'array', items: pathAdvice, minItems: 2, maxItems: 2 },
});
const platformList: Schema = { type: 'array', items: { enum: ['ios', 'android', 'web'] } };

export const outputSchemas = {
  listSdks: closed({
    contract_version: { const: CONTRACT_VERSION },
    sdks: { type: 'array', items: sdkEntrySchema, minItems: 5 },
    scaffold_kinds: strings,
    resource_uris: strings,
    next_tools: strings,
  }),
  recommendSdk: closed({
    query: str,
    matched: { type: 'boolean' },
    recommendations: {
      type: 'array',
      items: closed({
        sdk_id: { enum: [...SDK_IDS] },
        name: str,
        version: str,
        language: str,
        hosts: str,
        available: { type: 'boolean' },
        package: nullable(str),
        install_command: nullable(str),
        instead: nullable(str),
        steps: strings,
        matched_alias: str,
        runtime: nullable({ enum: ['capacitor', 'cordova', 'twa', 'pwa', 'browser'] }),
        notes: strings,
      }),
    },
    choices: { type: 'array', items: sdkSummary },
    message: str,
    sdk_less: nullable(closed({ summary: str, steps: strings, tools: strings })),
    next_tools: strings,
  }),
  recommendValidation: validationAdvice,
  recommendValidationForPlatforms: closed({
    platforms: { type: 'array', items: validationAdvice, minItems: 1 },
    subprovider_platforms: platformList,
    store_direct_platforms: platformList,
    undecided_platforms: platformList,
    subprovider_webhook_needed: { type: 'boolean' },
    rule: str,
    next_tools: strings,
  }),
  explainContract: closed({
    topic: { enum: [...CONTRACT_TOPICS] },
    contract_version: { const: CONTRACT_VERSION },
    title: str,
    summary: str,
    rules: { type: 'array', items: str, minItems: 1 },
    client_rules: strings,
    endpoints: strings,
    related_topics: { type: 'array', items: { enum: [...CONTRACT_TOPICS] } },
    valid_topics: strings,
  }),
  scaffold: closed({
    sdk_id: { enum: [...SDK_IDS] },
    sdk_version: str,
    kind: { enum: [...SCAFFOLD_KINDS] },
    language: { enum: ['typescript', 'kotlin'] },
    install_command: str,
    repository: nullable(str),
    client_base_url: { type: 'string', pattern: '^https?://.+/api$' },
    options: closed({
      store_direct: { type: 'boolean' },
      reports_purchases_itself: { type: 'boolean' },
      auto_capture: { type: ['boolean', 'null'] },
      entitlement: str,
      runtime: nullable(str),
    }),
    result_casing: { enum: ['snake_case', 'camelCase'] },
    storage_keys: { type: 'array', items: { type: 'string', pattern: '^@svc/' } },
    files: { type: 'array', minItems: 1, items: closed({ file_name: str, language: str, code: { type: 'string', minLength: 1 } }) },
    next_tools: strings,
  }),
} satisfies Record<string, Schema>;
