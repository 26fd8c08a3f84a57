// One read of an iOS app's App Store Notification History (workflows/notification-history.ts): the span since the
// last notification taken in (or the end of the previous complete read, whichever is later) less an hour's
// overlap, at most Apple's 180 days back, every page through the library (APPLE_API_ROOT), each listed
// notification fed through the webhook's own intake (verified, kept once per notificationUUID, normalised by its
// workflow). A 429 backs off (1 s doubling, 6 tries) and asks for the same page again; a read that fails keeps the
// cursor and records the error. Also starts again the workflow of items taken in whose run is missing.
import { Context, heartbeat, log, sleep } from '@temporalio/activity';
import { appleNotificationHistoryPage } from '../../clients/apple-app-store.js';
import { pendingRawItems } from '../../db/raw-intake.js';
import { loadCredentialForCheck, findStoreDirectSetup } from '../../db/store-credentials.js';
import { notificationState } from '../../db/store-notifications.js';
import { recordHistoryRead } from '../../db/store-notifications-writes.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import { APPLE_SOURCE, takeInAppleNotification } from '../../workflow-clients/apple-notification-intake.js';
import { startStoreNotification } from '../../workflow-clients/store-notification.js';
import type { NotificationHistoryInput, NotificationHistorySummary } from '../../workflows/notification-history-messages.js';
import type { StoreDirectContext } from './context.js';

const HOUR_MS = 3_600_000;
/** Apple keeps notification history for 180 days. */
const HISTORY_DAYS = 180;
/** Without any notification taken in or read yet, the first read looks back a day. */
const FIRST_READ_MS = 24 * HOUR_MS;
/** An item still not normalised this long after it was taken in has lost its workflow start. */
const PENDING_AFTER_MS = 5 * 60_000;
const APPLE_TIMEOUT_MS = 15_000;
const RATE_LIMIT_TRIES = 6;

/** Where a read starts: the later of the last notification taken in and the previous read's end, less an hour. */
function historySpanStart(lastReceivedMs: number | null, syncedUntilMs: number | null, nowMs: number): number {
  const known = Math.max(lastReceivedMs ?? 0, syncedUntilMs ?? 0);
  const from = known > 0 ? known - HOUR_MS : nowMs - FIRST_READ_MS;
  return Math.max(from, nowMs - HISTORY_DAYS * 24 * HOUR_MS + HOUR_MS);
}

export function notificationHistoryActivities(ctx: StoreDirectContext) {
  return {
    async readAppleNotificationHistory({ appId }: Pick<NotificationHistoryInput, 'appId'>): Promise<NotificationHistorySummary> {
      const summary: NotificationHistorySummary = {
        active: true,
        listed: 0,
        takenIn: 0,
        pages: 0,
        resumed: 0,
        syncedUntilMs: null,
        error: null,
      };
      const setup = await findStoreDirectSetup(ctx.db, appId, 'ios');
      if (setup?.provider !== STORE_VERIFIER.ios) return { ...summary, active: false };
      const { client, info } = Context.current();
      const deps = {
        db: ctx.db,
        config: ctx.config,
        temporal: client,
        taskQueue: info.taskQueue,
        warn: (context: Record<string, unknown>, message: string) => log.warn(message, context),
      };
      summary.resumed = await resumePending(ctx, deps, appId);
      const box = ctx.secretBox();
      const stored = box ? await loadCredentialForCheck(ctx.db, box, appId, 'ios') : undefined;
      if (!stored?.secret) {
        const error = 'The App Store key is missing or unreadable: upload it again through the credential-setup link.';
        await recordHistoryRead(ctx.db, appId, APPLE_SOURCE, { error });
        return { ...summary, error };
      }
      const state = await notificationState(ctx.db, appId, APPLE_SOURCE);
      const endMs = Date.now();
      const span = {
        startMs: historySpanStart(state?.last_received_at?.getTime() ?? null, state?.history_synced_until?.getTime() ?? null, endMs),
        endMs,
      };
      let token: string | undefined;
      do {
        const page = await pageWithBackOff(ctx, stored.secret, stored.meta, span, token);
        if (!page.ok) {
          await recordHistoryRead(ctx.db, appId, APPLE_SOURCE, { error: page.error });
          return { ...summary, error: page.error };
        }
        summary.pages += 1;
        for (const item of page.page.notificationHistory ?? []) {
          heartbeat();
          if (!item.signedPayload) continue;
          summary.listed += 1;
          const outcome = await takeInAppleNotification(deps, appId, item.signedPayload);
          if (outcome.kind === 'taken' && outcome.inserted) summary.takenIn += 1;
          else if (outcome.kind !== 'taken')
            log.warn('a notification of the history was not taken in', {
              appId,
              outcome: outcome.kind,
              why: 'detail' in outcome ? outcome.detail : 'reason' in outcome ? outcome.reason : 'no such app',
            });
        }
        token = page.page.hasMore ? page.page.paginationToken : undefined;
      } while (token);
      await recordHistoryRead(ctx.db, appId, APPLE_SOURCE, { syncedUntil: new Date(span.endMs) });
      return { ...summary, syncedUntilMs: span.endMs };
    },
  };
}

async function pageWithBackOff(
  ctx: StoreDirectContext,
  secret: string,
  meta: Record<string, string | null>,
  span: { startMs: number; endMs: number },
  token: string | undefined,
) {
  for (let attempt = 1; ; attempt += 1) {
    const page = await appleNotificationHistoryPage(ctx.config, secret, meta, span, token, APPLE_TIMEOUT_MS);
    if (page.ok || page.status !== 'rate_limited' || attempt >= RATE_LIMIT_TRIES) return page;
    heartbeat();
    await sleep(1000 * 2 ** (attempt - 1));
  }
}

/** Items taken in long enough ago whose workflow never started (Temporal was away at the time): started now. */
async function resumePending(
  ctx: StoreDirectContext,
  deps: { temporal: Parameters<typeof startStoreNotification>[0]; taskQueue: string },
  appId: string,
): Promise<number> {
  const pending = await pendingRawItems(ctx.db, appId, APPLE_SOURCE, new Date(Date.now() - PENDING_AFTER_MS));
  for (const externalId of pending) {
    await startStoreNotification(deps.temporal, deps.taskQueue, {
      appId,
      source: APPLE_SOURCE,
      externalId,
      bindingWaitMs: ctx.config.STORE_NOTIFICATION_BINDING_WAIT_MS,
    });
  }
  return pending.length;
}
