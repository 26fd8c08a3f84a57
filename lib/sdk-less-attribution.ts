// Whether an app can attribute purchases with no client code of ours (issue 38): the stores (or the subscription
// provider) tell us about every purchase, and a purchase that redeemed a creator's offer code names the creator. It
// sits beside the checklist, which stays as the spec fixes it (an SDK-less app is never `live`: `live` needs the SDK
// steps). Pure: decided from the facts db/integration.ts reads. Where the issue is silent:
// * The platforms are the checklist's platforms in use (lib/integration-checklist.ts platformsInUse) less web.
// * A platform's purchases reach us without the SDK when, store-direct, its credentials passed the live check and its
//   store's server notifications are wired (a notification or the test notification received); otherwise, when the
//   subscription provider's webhook is connected (its events carry the offer code). The direct purchase webhook does
//   not count: it carries no offer.
// * At least one active offer code on a platform in use.
// * The next action is offered only while it can matter: the app has no SDK initialized yet (this is its way to
//   attribute), or it already has an offer code (the developer started on this path). A live SDK app is not nagged.
import { isStoreDirect } from './validation-providers.js';
import { platformsInUse, type IntegrationFacts, type ToolCall } from './integration-checklist.js';
import type { NextCall } from '../errors/http-errors.js';

export type SdkLessMissing = 'store_platform' | 'ios_store_notifications' | 'android_store_notifications' | 'active_offer_code';

export interface SdkLessAttribution {
  ready: boolean;
  missing: SdkLessMissing[];
}

export interface SdkLessAction extends NextCall {
  step: 'sdk_less_attribution';
  action: string;
}

type StorePlatform = 'ios' | 'android';

/** Each gap in words, with the tool that closes it (the caller's lookup names its REST call). */
function gapAction(gap: SdkLessMissing, f: IntegrationFacts, tool: ToolCall): { words: string; call: NextCall } {
  const ofApp = { app_id: f.appId };
  if (gap === 'active_offer_code') {
    const add = tool('svc_add_offer_code');
    return {
      words:
        `give a creator of an active campaign an offer code (${add.call}): on the App Store make one offer per creator ` +
        "in App Store Connect (Apple sends only the offer's reference name, so a shared offer cannot tell creators " +
        'apart) and register its reference name; on Google Play register the offer id with its product and base plan, ' +
        'or an offer tag used by that creator alone',
      call: add,
    };
  }
  if (gap === 'store_platform') {
    const upload = tool('svc_get_credential_upload_link', ofApp);
    return { words: `connect an App Store or Google Play app: store credentials through ${upload.call}`, call: upload };
  }
  const platform: StorePlatform = gap === 'ios_store_notifications' ? 'ios' : 'android';
  if (isStoreDirect(platform, f.providers)) {
    const check = tool('svc_validate_store_credentials', ofApp);
    const where =
      platform === 'ios' ? "App Store Connect's App Store Server Notifications (V2)" : "Play Console's real-time developer notifications";
    return {
      words:
        `${platform}: green-check the store credentials (${check.call}) and point ${where} at this app's store ` +
        "notification URL, then send the store's test notification",
      call: check,
    };
  }
  const setup = tool('svc_setup_subprovider', ofApp);
  return { words: `${platform}: connect the subscription provider's webhook (${setup.call}) and send its TEST event`, call: setup };
}

function notified(f: IntegrationFacts, platform: StorePlatform): boolean {
  if (isStoreDirect(platform, f.providers)) return f.storeCredentials[platform] === 'ok' && f.notificationsWired?.[platform] === true;
  return f.webhookConnectedAt !== null || f.lastProviderWebhook !== null;
}

export function evaluateSdkLess(f: IntegrationFacts, tool: ToolCall): { status: SdkLessAttribution; action: SdkLessAction | null } {
  const platforms = platformsInUse(f).filter((p): p is StorePlatform => p !== 'web');
  const missing: SdkLessMissing[] = platforms.length === 0 ? ['store_platform'] : [];
  for (const p of platforms) if (!notified(f, p)) missing.push(`${p}_store_notifications`);
  const withCode = f.activeOfferCodePlatforms ?? [];
  if (!platforms.some((p) => withCode.includes(p))) missing.push('active_offer_code');
  const status = { ready: missing.length === 0, missing };
  const relevant = f.sdkInitializedAt === null || withCode.length > 0;
  if (status.ready || !relevant) return { status, action: null };
  const gaps = missing.map((g) => gapAction(g, f, tool));
  return {
    status,
    action: {
      step: 'sdk_less_attribution',
      action: 'To attribute purchases with no client code (store offer codes): ' + gaps.map((g) => g.words).join('; ') + '.',
      ...gaps[0]!.call,
    },
  };
}
