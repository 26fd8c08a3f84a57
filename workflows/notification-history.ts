// The hourly catch-up of one iOS store-direct app, `apple-notification-history/{app_id}` (started at activation
// and, idempotently, at worker start): read the App Store's Notification History since the last notification taken
// in (less an hour's overlap), every page, and feed what we missed through the webhook's own intake; start again
// the workflow of any item taken in whose normalising run is missing. One activity per read
// (activities/store-direct/notification-history.ts), then wait the interval. The update
// `readNotificationHistoryNow` runs a read now and answers its summary. The workflow ends once the platform is no
// longer store-direct and continues-as-new after `readsPerRun` reads.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
  ActivityFailure,
} from '@temporalio/workflow';
import type { notificationHistoryActivities } from '../activities/store-direct/notification-history.js';
import {
  DEFAULT_HISTORY_INTERVAL_MS,
  readNotificationHistoryNowUpdate,
  type NotificationHistoryInput,
  type NotificationHistorySummary,
} from './store-notification-messages.js';

type StoreDirectActivities = ReturnType<typeof notificationHistoryActivities>;
// A read may page through many notifications (heartbeats tell progress) and backs off on 429 itself.
const { readAppleNotificationHistory } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

const DEFAULT_READS_PER_RUN = 500;

export async function notificationHistoryWorkflow(input: NotificationHistoryInput): Promise<NotificationHistorySummary> {
  const interval = input.intervalMs ?? DEFAULT_HISTORY_INTERVAL_MS;
  let requested = 0;
  let completed = 0;
  let last: NotificationHistorySummary | undefined;

  setHandler(readNotificationHistoryNowUpdate, async () => {
    if (last?.active === false) return last;
    const ticket = ++requested;
    await condition(() => completed >= ticket);
    return last!;
  });

  for (let reads = 1; ; reads += 1) {
    const serving = requested;
    last = await read(input.appId);
    completed = serving;
    if (!last.active) break;
    if (reads >= (input.readsPerRun ?? DEFAULT_READS_PER_RUN) || workflowInfo().continueAsNewSuggested) {
      await condition(() => allHandlersFinished() || requested > completed);
      if (requested === completed) await continueAsNew<typeof notificationHistoryWorkflow>(input);
    }
    await condition(() => requested > completed, interval);
  }
  completed = requested;
  await condition(allHandlersFinished);
  return last;
}

/** One read; an activity that failed past its retries is a failed read (the cursor stays), not the end of the loop. */
async function read(appId: string): Promise<NotificationHistorySummary> {
  try {
    return await readAppleNotificationHistory({ appId });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const error = err.cause?.message ?? err.message;
    log.warn('notification history read failed', { appId, error });
    return { active: true, listed: 0, takenIn: 0, pages: 0, resumed: 0, syncedUntilMs: null, error };
  }
}
