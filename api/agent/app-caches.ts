// An agent write that changes what the SDK read caches hold drops that app's entries in this process at once;
// other processes learn it from the database's change feed (runtime/app-change-feed.ts).
import type { AppContext } from '../context.js';

export function forgetAppCaches(ctx: AppContext, appId: string): void {
  ctx.caches.initSnapshots.dropApp(appId);
  ctx.caches.codes.dropApp(appId);
  ctx.caches.webhookSecrets.dropApp(appId);
  ctx.caches.validationProviders.dropApp(appId);
}
