// The hourly catch-up of one iOS store-direct app, `apple-notification-history/{app_id}` (started at activation
// and, idempotently, at worker start): read the App Store's Notification History since the last notification taken
// in (less an hour's overlap), every page, and feed what we missed through the webhook's own intake; start again
// the workflow of any item taken in whose normalising run is missing. One activity per read
// (activities/store-direct/notification-history.ts), then wait the interval (the loop of workflows/periodic-read.ts).
// The update `readNotificationHistoryNow` runs a read now and answers its summary. The workflow ends once the
// platform is no longer store-direct and continues-as-new after `readsPerRun` reads.
import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { notificationHistoryActivities } from '../activities/store-direct/notification-history.js';
import {
  DEFAULT_HISTORY_INTERVAL_MS,
  readNotificationHistoryNowUpdate,
  type NotificationHistoryInput,
  type NotificationHistorySummary,
} from './notification-history-messages.js';
import { runPeriodicRead } from './periodic-read.js';

type StoreDirectActivities = ReturnType<typeof notificationHistoryActivities>;
// A read may page through many notifications (heartbeats tell progress) and backs off on 429 itself.
const { readAppleNotificationHistory } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

const DEFAULT_READS_PER_RUN = 500;

export async function notificationHistoryWorkflow(input: NotificationHistoryInput): Promise<NotificationHistorySummary> {
  return runPeriodicRead({
    appId: input.appId,
    readNow: readNotificationHistoryNowUpdate,
    intervalMs: input.intervalMs ?? DEFAULT_HISTORY_INTERVAL_MS,
    readsPerRun: input.readsPerRun ?? DEFAULT_READS_PER_RUN,
    read: readAppleNotificationHistory,
    failed: {
      summary: (error) => ({ active: true, listed: 0, takenIn: 0, pages: 0, resumed: 0, syncedUntilMs: null, error }),
      warning: 'notification history read failed',
    },
    continueAsNew: () => continueAsNew<typeof notificationHistoryWorkflow>(input),
  });
}
