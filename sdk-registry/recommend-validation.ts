// svc_recommend_validation(_for_platforms): which purchase-validation path a platform should use and what each
// needs. Spec: two paths exist per platform and must never both be used. Where the spec is silent:
// * An app that already runs a subscription provider keeps it (the provider validates receipts and sends
//   webhooks); without one, iOS and Android go store-direct. When the caller does not say, the answer is null with
//   the question to ask the developer, because a wrong guess means wiring the path that must then stay unused.
// * Web has no store-direct path (POST /sdk/purchase takes ios or android only), so web is always the provider
//   path, or the developer's own server reporting through the direct purchase webhook.
// * React Native, Flutter and Kotlin Multiplatform name two store platforms; the single-platform tool refuses them.
import { matchStack } from './aliases.js';
import { inputError } from './input-error.js';
import { clientBaseUrl, type ClientPlatform, type SdkId } from './registry.js';

export type ValidationPath = 'subprovider' | 'store-direct';

const PLATFORMS_OF: Record<SdkId, ClientPlatform[]> = {
  'react-native': ['ios', 'android'],
  flutter: ['ios', 'android'],
  ios: ['ios'],
  android: ['android'],
  web: ['web'],
};

const NEVER_BOTH =
  'Use exactly one path per platform, never both: either the subscription provider sends its ' +
  "purchase webhooks, or the client sends the store's signed proof (store-direct). Switching a platform to " +
  "store-direct means its purchases stop coming from the provider's webhook for this service.";

/** Store platforms a free-text platform names ('swift' -> ios, 'flutter' -> ios + android). */
function platformsNamed(text: string): ClientPlatform[] {
  const named = matchStack(text).flatMap((m) => PLATFORMS_OF[m.sdk]);
  return [...new Set(named)];
}

interface PathAdvice {
  path: ValidationPath;
  available: boolean;
  needs: string[];
  client_side: string[];
  tools: string[];
}

function subproviderAdvice(platform: ClientPlatform, apiBase: string, appId: string): PathAdvice {
  const webhookUrl = `${apiBase}/webhooks/subprovider/${appId}`;
  const needs = [
    `The provider's webhook pointing at ${webhookUrl} with header \`Authorization: Bearer ` +
      `<webhook secret>\` (rc_webhook_..., shown once at provisioning; regenerate it if lost).`,
    "The provider's TEST event marks the webhook connected (checklist step subprovider_webhook_wired).",
    "The same app user id in the provider and in the SDK's identify call.",
  ];
  if (platform === 'web') {
    needs.push(
      "Alternative for web payments outside the provider: the developer's server posts each purchase to " +
        `${apiBase}/webhooks/purchase with the server-side purchase key (it_srv_..., never in ` +
        `client code). It records PRODUCTION purchases (commission and wallet reservations are real): ` +
        'report only real purchases there, and prove the integration with a sandbox purchase through the provider.',
    );
  }
  return {
    path: 'subprovider',
    available: true,
    needs,
    client_side: [
      'Give the SDK the setter callback so it sets the subscriber ' +
        'attributes svc_code (uppercased code) and svc_referral (the string "true").',
      'Do not call reportPurchase; auto capture never starts because init answers store_direct false.',
    ],
    tools: ['svc_setup_subprovider', 'svc_regenerate_webhook_secret', 'svc_get_validation_status', 'svc_test_integration'],
  };
}

const STORE_NEEDS: Record<ClientPlatform, string[]> = {
  ios: [
    'An App Store Connect In-App Purchase key (.p8), uploaded by the human through the signed credential link.',
    'The non-secret issuer id, key id, environment and App Store app id (svc_set_apple_meta).',
  ],
  android: [
    'A Google Play service account (JSON key) with access to the app in ' +
      'Play Console, uploaded by the human through the signed credential link.',
  ],
  web: [],
};

const STORE_CLIENT: Record<ClientPlatform, string> = {
  ios:
    'iOS sends the signed JWS transaction (not decoded JSON); set ' +
    'appAccountToken to the UUID (v5 layout) derived from SHA-256 of the user id.',
  android: 'Android sends the purchase token, plus productId, price and currency for one-time products; set the obfuscated account id.',
  web: '',
};

function storeDirectAdvice(platform: ClientPlatform): PathAdvice {
  if (platform === 'web') {
    return {
      path: 'store-direct',
      available: false,
      needs: ['Not available on web: POST /sdk/purchase accepts ios or android only.'],
      client_side: [],
      tools: [],
    };
  }
  return {
    path: 'store-direct',
    available: true,
    needs: [
      ...STORE_NEEDS[platform],
      'A passing live credential check (svc_validate_store_credentials; repeat while retryable), then svc_activate_store_direct.',
      'No subscription-provider webhook for this platform.',
    ],
    client_side: [
      STORE_CLIENT[platform],
      'Either auto capture (starts when init answers store_direct true) or reportPurchase with autoCapture: false; never both.',
      'The stored code goes with the first reported purchase; reportPurchase throws, and a 503 means retry later.',
    ],
    tools: [
      'svc_get_credential_upload_link',
      ...(platform === 'ios' ? ['svc_set_apple_meta'] : []),
      'svc_validate_store_credentials',
      'svc_activate_store_direct',
      'svc_scaffold_report_purchase',
    ],
  };
}

export interface ValidationQuestion {
  uses_subscription_provider?: boolean;
  app_id?: string;
}

function chooseDefault(platform: ClientPlatform, usesProvider: boolean | undefined): { path: ValidationPath | null; reason: string } {
  if (platform === 'web') return { path: 'subprovider', reason: 'Web has no store-direct path.' };
  if (usesProvider === true)
    return { path: 'subprovider', reason: 'The app already uses a subscription provider, which validates purchases and sends webhooks.' };
  if (usesProvider === false)
    return { path: 'store-direct', reason: "Without a subscription provider the service verifies the store's signed proof itself." };
  return { path: null, reason: 'Depends on whether the app uses a subscription provider.' };
}

export function recommendValidation(platform: ClientPlatform, q: ValidationQuestion, baseUrl: string) {
  const { path, reason } = chooseDefault(platform, q.uses_subscription_provider);
  return {
    platform,
    recommended_path: path,
    reason,
    question: path === null ? 'Does the app use a subscription provider for this platform? Yes: subprovider; no: store-direct.' : null,
    rule: NEVER_BOTH,
    paths: [subproviderAdvice(platform, clientBaseUrl(baseUrl), q.app_id ?? '{app_id}'), storeDirectAdvice(platform)],
  };
}

/** The one platform of svc_recommend_validation; two (React Native, Flutter) is an input error. */
export function singlePlatform(text: string): ClientPlatform {
  const platforms = platformsNamed(text);
  const [first] = platforms;
  if (!first) throw inputError(['platform'], `'${text}' is not a platform: use ios, android or web.`);
  if (platforms.length > 1) {
    throw inputError(['platform'], `'${text}' covers ${platforms.join(' and ')}; call svc_recommend_validation_for_platforms with both.`);
  }
  return first;
}

export function recommendValidationForPlatforms(texts: string[], q: ValidationQuestion, baseUrl: string) {
  const platforms = [
    ...new Set(
      texts.flatMap((text, i) => {
        const named = platformsNamed(text);
        if (named.length === 0) throw inputError(['platforms', String(i)], `'${text}' is not a platform: use ios, android or web.`);
        return named;
      }),
    ),
  ];
  const results = platforms.map((p) => recommendValidation(p, q, baseUrl));
  const on = (path: ValidationPath) => results.filter((r) => r.recommended_path === path).map((r) => r.platform);
  return {
    platforms: results,
    subprovider_platforms: on('subprovider'),
    store_direct_platforms: on('store-direct'),
    undecided_platforms: results.filter((r) => r.recommended_path === null).map((r) => r.platform),
    subprovider_webhook_needed: on('subprovider').length > 0,
    rule: NEVER_BOTH,
    next_tools: ['svc_setup_subprovider', 'svc_get_credential_upload_link', 'svc_get_validation_status'],
  };
}
