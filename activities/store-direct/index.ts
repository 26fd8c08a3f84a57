// Activities of store-direct validation (workflows/credential-check.ts, workflows/store-purchase.ts): the
// credential green-check, the verification of a purchase proof with Apple or Google, its price in USD, and the
// hand-off of the verified events to their conversion workflow; the poll of Google's voided purchases
// (workflows/play-voided-sync.ts); store server notifications: the two stores' adapters of the one normalising flow
// (workflows/store-notification.ts; apple-notifications.ts, google-notifications.ts) and the App Store history catch-up
// (workflows/notification-history.ts).
import { contextOf, type StoreDirectDeps } from './context.js';
import { credentialCheckActivities } from './credential-check.js';
import { fxActivities } from './fx.js';
import { notificationHistoryActivities } from './notification-history.js';
import { appleNotificationActivities } from './apple-notifications.js';
import { handOffActivities } from './record.js';
import { googleNotificationActivities } from './google-notifications.js';
import { verifyActivities } from './verify.js';
import { voidedActivities } from './voided.js';

export type { StoreDirectDeps } from './context.js';

export function createStoreDirectActivities(deps: StoreDirectDeps) {
  const ctx = contextOf(deps);
  return {
    ...credentialCheckActivities(ctx),
    ...verifyActivities(ctx),
    ...fxActivities(ctx),
    ...handOffActivities(ctx),
    ...voidedActivities(ctx),
    ...appleNotificationActivities(ctx),
    ...googleNotificationActivities(ctx),
    ...notificationHistoryActivities(ctx),
  };
}
