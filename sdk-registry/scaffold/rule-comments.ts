// The comments every scaffold carries, once for all languages: they say why the code is shaped as it is, in the
// words of the client-side rules, so an agent editing the code later keeps the rule.
import type { ScaffoldContext } from './types.js';

export const WHY = {
  key: 'The public SDK key (it_...) ships in the app; never put an agent key (it_mcp_...) or the server purchase key (it_srv_...) here.',
  baseUrl: "This service's client API ({base_url}/api); override only for testing.",
  init: 'Call once at start-up; initialize is the only init-time call that throws.',
  attribution: 'Cached in @svc/attribution after the first answer, so calling it on every launch is cheap.',
  identify: 'Ties the install (and its creator) to the user id purchases will carry; call after sign-in.',
  attributes:
    "Provider attributes belong to the provider's current user: set them " +
    'again after its logIn. svc_referral is the string "true", never a boolean.',
  code:
    'Codes are trimmed and uppercased before sending; applyCode validates ' +
    'then sets, and the SDK keeps the code only after the server accepts it.',
  freeAccess: 'Free-access codes need a signed-in user (identify first); access then comes from checkAccess.',
  gate: 'Premium gate: the entitlement OR a free-access grant (checkAccess().hasAccess), never the rc_grant mirror of set-referral-code.',
  report:
    'The stored code is required on the first reported purchase so it binds to the creator; duplicates are ' +
    'safe. reportPurchase throws: on a retryable error (503) keep the transaction unfinished and report it again.',
  autoCaptureReport:
    'Auto capture reports new store purchases; back-sync sends the ones made before (sent excludes already-reported ones).',
  providerReport:
    "Subscription-provider path: purchases reach the service through the provider's webhook, so the " +
    "app never calls reportPurchase. It owes the attributes on the provider's user before the purchase.",
  offerCodes:
    "Store offer codes credit a creator with no code here: the store's notifications name the redeemed offer. On the " +
    "App Store make one offer per creator (Apple sends only the offer's reference name); on Google Play an offer id " +
    'or an offer tag per creator. Register each with svc_add_offer_code.',
  signOut: 'clearAttribution keeps the sent-purchase set, so a purchase is never reported twice.',
} as const;

/** Why the config has (or lacks) autoCapture. */
export function autoCaptureWhy(c: ScaffoldContext): string {
  if (c.options.autoCapture === false) return 'The app reports purchases itself: one reporting path only, so auto capture is off.';
  if (c.options.autoCapture === true) return 'Store-direct: the SDK reports store purchases itself once init answers store_direct true.';
  return "Not store-direct: auto capture never starts, purchases arrive through the subscription provider's webhook.";
}

/** Rule 11 for this SDK, generated from the registry so the scaffold lists exactly its keys. */
export function storageKeysText(c: ScaffoldContext): string {
  const { keys, cleared_by_clear_attribution: cleared, medium } = c.sdk.storage;
  return (
    `Local keys the SDK keeps in ${medium} (do not write them yourself): ${keys.join(', ')}. ` +
    `clearAttribution removes ${cleared.join(', ')} and leaves the rest.`
  );
}

/** What the code field says per error_code (spec "Errors"); every language renders the same table. */
export const CODE_MESSAGES: [string, string][] = [
  ['INVALID_FORMAT', 'Codes have 4 to 20 letters, digits, - or _.'],
  ['CODE_NOT_FOUND', 'This code does not exist.'],
  ['CODE_EXPIRED', 'This code has expired.'],
  ['MISSING_USER_ID', 'Sign in to redeem this code.'],
  ['NETWORK_ERROR', 'No connection, try again.'],
];
export const CODE_FALLBACK = 'This code is not valid.';
