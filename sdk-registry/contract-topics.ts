// svc_explain_contract: the spec's rules per topic, in the spec's words where they are exact (windows, values,
// literal strings). Server rules and the client-side rules they pin are kept apart so an agent can tell what the
// service does from what the app must do.
import { inputError } from './input-error.js';
import { CONTRACT_VERSION } from './registry.js';

export const CONTRACT_TOPICS = ['attribution', 'purchase', 'comp', 'dedup', 'rc-attributes'] as const;
export type ContractTopic = (typeof CONTRACT_TOPICS)[number];

interface TopicText {
  title: string;
  summary: string;
  rules: string[];
  client_rules: string[];
  endpoints: string[];
  related_topics: ContractTopic[];
}

const TOPICS: Record<ContractTopic, TopicText> = {
  attribution: {
    title: 'Install and user attribution',
    summary:
      'An install is attributed to a creator by the link it came from (link_param), else by IP and device matching ' +
      'against recent link clicks (ip_device_match), else by a code the user types; otherwise it is organic.',
    rules: [
      "The link-click matching window is 72 hours (init returns the app's attribution_window_hours).",
      'track-install decides once per install; installs are counted once ' +
        'per device_id (a random UUID generated once per install and persisted).',
      'With referral_code and click_id from the link (web URL parameters or the Android ' +
        'install-referrer string) the install is attributed exactly, attribution_method link_param.',
      'Otherwise the service matches the request IP and device against unclaimed link clicks within the ' +
        'window: attribution_method ip_device_match; no match is organic (attributed false, install_recorded true).',
      'install_recorded is false when the device_id was seen before; a device that already claimed a ' +
        'click within the window gets the same answer again with re_claimed: true, without taking another click.',
      "A manually entered creator code (set-referral-code) counts as one click and one install; if this creator's link already " +
        'attributed an install from the same IP within the window the answer is already_attributed true and nothing new is recorded.',
      'identify attaches the app user id to the install (with device_id that exact install, else ' +
        'only an unambiguous recent match from the request IP); the first identify for a click wins.',
      'Codes attribute only while their campaign is active. A user who already converted for a creator stays with that creator.',
      'GET /sdk/attribution answers attributed true only once an attributed purchase exists.',
    ],
    client_rules: [
      'checkAttribution returns the cached @svc/attribution if present, otherwise posts ' +
        'track-install, persists the result (attributed and organic both) and sets the ' +
        'subscriber attributes; on failure it returns {attributed: false, message} and stores nothing.',
      'Web reads svc_code and svc_click from the launch URL during init (captureLaunchCode and cleanUrl ' +
        'default true) and can take the Android install-referrer string; such a code replaces a stored organic result.',
      'Codes are trimmed and uppercased before sending.',
    ],
    endpoints: [
      'POST /api/sdk/init',
      'POST /api/sdk/track-install',
      'POST /api/sdk/identify',
      'POST /api/sdk/set-referral-code',
      'GET /api/sdk/attribution',
    ],
    related_topics: ['rc-attributes', 'dedup'],
  },
  purchase: {
    title: 'Purchase validation and processing',
    summary:
      "Purchases reach the service by exactly one path per platform: the subscription provider's webhook, or " +
      "store-direct (the client sends the store's signed proof and the service verifies it with Apple or Google).",
    rules: [
      'The two paths must never both be used for one platform.',
      'Webhook processing, in order: verify, parse, find the code, match campaign and creator, compute ' +
        'commission and platform fee, record conversion, update stats, reserve funds from the wallet, respond.',
      'The code is read from the subscriber attribute svc_code; without it the service looks for an ' +
        "attributed click for the event's app user id. A user who already converted for a creator stays with that creator.",
      'INITIAL_PURCHASE creates the conversion if the user is attributed (a paid purchase earns commission, a trial ' +
        'waits until it converts); RENEWAL earns per paid renewal; NON_RENEWING_PURCHASE per one-time purchase; ' +
        'CANCELLATION, UNCANCELLATION, EXPIRATION update the state (expiration = churned); PRODUCT_CHANGE updates the ' +
        "product (the next renewal's price sets the commission); REFUND reverses the commission; TEST marks the webhook connected.",
      "BILLING_ISSUE is logged. Promotional grants (including the service's own free-access " +
        'mirror) and unknown event types are acknowledged and ignored; redelivered events are recorded once.',
      'The provider retries a failed delivery after 1 minute, 5 minutes, 30 minutes, 2 hours and 8 hours, then stops after 24 hours.',
      'Sandbox environments (SANDBOX, XCODE, LOCAL_TESTING) are attributed ' +
        'but never move money, reserve funds, change stats or count toward payouts.',
      "The direct purchase webhook (POST /api/webhooks/purchase, the app's server-side purchase key) records " +
        'PRODUCTION purchases: commission and wallet reservations are real, so report only real purchases there.',
      "The integration checklist counts purchases that came through the app's real path (provider " +
        'webhook, /sdk/purchase, direct purchase webhook) in any environment: one sandbox purchase ' +
        'with a creator code makes an app live; the synthetic test-integration purchase completes no step.',
      'Store-direct POST /sdk/purchase: iOS sends the signed JWS transaction, Android the purchase token (plus product_id, ' +
        'price and currency for one-time products); referral_code is required on the first purchase so it binds to the creator.',
      'Store-direct answers success, validated (a string naming the store verifier, never a boolean), environment, ' +
        'event_type, duplicate, recorded, result {processed, event_id}; duplicate true means already recorded, so double ' +
        'reporting is safe.',
      'Store-direct statuses: 400 platform not switched to store-direct, credentials missing, proof missing or ' +
        'verification failed; 409 Android one-time purchase not PURCHASED; 503 exchange rate unavailable (retry later).',
      'Conversions are keyed on store identity (iOS original transaction id, Android subscription purchase token, ' +
        "Android one-time order id, or the provider's transaction id); each one-time purchase is its own conversion.",
    ],
    client_rules: [
      'Auto capture starts only when init returns store_direct true and autoCapture is not false; never on apps that are not store-direct.',
      'One reporting path only: a store-direct host that reports manually sets autoCapture: false.',
      'reportPurchase sends the stored code on the first transaction and throws on failure (503 means retry); ' +
        'hosts set an account token (iOS: UUID v5 layout from SHA-256 of the user id) or obfuscated account id (Android).',
      'Reported store ids are kept in a sent-set and skipped later; clearAttribution does not clear it.',
    ],
    endpoints: [
      'POST /api/sdk/purchase',
      'POST /api/webhooks/subprovider/{app_id}',
      'POST /api/webhooks/purchase',
      'GET /api/sdk/recent-conversions',
    ],
    related_topics: ['rc-attributes', 'dedup'],
  },
  comp: {
    title: 'Free-access (comp) codes',
    summary:
      'A free-access code grants access through the service itself, for every app; ' +
      'mirroring the grant to the subscription provider is an optional best-effort extra.',
    rules: [
      'validate-code matches active creator codes first, then free-access codes; a free-access code answers ' +
        'campaign name Free Access, campaign_type FREE_ACCESS, commission_percentage 0, influencer null, custom_data carried.',
      'set-referral-code with a free-access code needs app_user_id (else success false, ' +
        'error_code MISSING_USER_ID); an expired code or one without seats left answers CODE_EXPIRED.',
      'The same user redeeming again is granted again without using another seat.',
      'Seat limits and expiry are checked on every access check (GET ' +
        '/sdk/access); a code that expires or is blocked removes access for all holders.',
      'GET /sdk/access answers has_access, source (comp or null), entitlement, expires_at, code; an empty app_user_id is 400.',
      'Premium must be gated on /sdk/access, not on the rc_grant mirror result of set-referral-code.',
    ],
    client_rules: [
      'Premium gate: entitlement OR checkAccess().hasAccess.',
      'checkAccess caches a positive result 5 minutes under @svc/access, never ' +
        'caches a negative one, and returns false without a request when no user id is known.',
      'A free-access code needs a user id, which defaults to the identified user (React Native 1.6.1, iOS/Android/Flutter 1.1.1).',
      'applyCode (validate then set) adds applied and does not return free-access fields; call setReferralCode for those.',
    ],
    endpoints: ['POST /api/sdk/validate-code', 'POST /api/sdk/set-referral-code', 'GET /api/sdk/access'],
    related_topics: ['attribution'],
  },
  dedup: {
    title: 'Deduplication',
    summary:
      'Every write path can be retried safely: the server drops repeats by id or by window, and the client skips what it already sent.',
    rules: [
      'SDK events: a repeat with the same event_id is dropped; trial_started, subscription_purchased ' +
        'and subscription_renewed are kept to one per user and property set; an identical event without ' +
        'event_id within 60 seconds is dropped. A dropped repeat answers duplicate: true and dedup_reason.',
      'identify: the same key and user within 60 seconds is answered from ' +
        'memory (deduplicated: true); rate limit 2 requests per second per IP.',
      'Installs are counted once per device_id; a device that already claimed a click gets the same answer with re_claimed: true.',
      'Subscription-provider webhooks are idempotent on app, event type, ' +
        'transaction id and event timestamp: redelivered events are recorded once.',
      'Store-direct reports of an already recorded purchase answer duplicate: true.',
      'SDK events never create conversions or commission.',
    ],
    client_rules: [
      'trackEvent generates a UUID v4 eventId when absent; for trial_started, ' +
        'subscription_purchased and subscription_renewed the id is derived from event type, user and properties.',
      'Reported store ids are kept in a sent-set (@svc/reported_purchases on React Native, Android, ' +
        'Flutter and web; @svc/sent_purchases on iOS) and skipped later; clearAttribution does not clear it.',
      'Back-sync answers {fetched, sent, failed}; sent excludes already-reported purchases.',
    ],
    endpoints: ['POST /api/sdk/event', 'POST /api/sdk/identify', 'POST /api/sdk/track-install', 'POST /api/sdk/purchase'],
    related_topics: ['purchase', 'attribution'],
  },
  'rc-attributes': {
    title: 'Subscriber attributes for the subscription provider',
    summary: 'On the subscription-provider path the purchase webhook carries the referral code as a subscriber attribute the app sets.',
    rules: [
      'svc_code: the uppercased referral code. The webhook reads the code from it.',
      'svc_referral: the literal string "true", never a boolean. It is for the developer\'s own targeting; the service does not read it.',
      "Without svc_code the service looks for an attributed click for the event's " +
        'app user id; a user who already converted for a creator stays with that creator.',
      'An unattributed purchase usually means the subscriber lacks svc_code or the user is already ' +
        'attributed to another creator; "affiliate not found" means the code is missing or its campaign inactive.',
      'svc_setup_subprovider wires the webhook and returns its URL and these two attributes.',
    ],
    client_rules: [
      'The SDK sets both attributes on attribution and on code application, through an injected setter callback (optional).',
      'Set them before the first purchase, under the same app user id the provider will report.',
    ],
    endpoints: ['POST /api/webhooks/subprovider/{app_id}'],
    related_topics: ['purchase', 'attribution'],
  },
};

function isContractTopic(value: string): value is ContractTopic {
  return (CONTRACT_TOPICS as readonly string[]).includes(value);
}

export function explainContract(topic: string) {
  if (!isContractTopic(topic)) {
    throw inputError(['topic'], `Unknown topic '${topic}'; valid topics: ${CONTRACT_TOPICS.join(', ')}.`, 'enum');
  }
  return { topic, contract_version: CONTRACT_VERSION, ...TOPICS[topic], valid_topics: [...CONTRACT_TOPICS] };
}
