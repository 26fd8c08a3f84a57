// The durable poll of Google Play's voided purchases for one Android store-direct app, `play-voided-sync/{app_id}`
// (started at activation and, idempotently, at worker start): poll, wait the interval, poll again (the loop of
// workflows/periodic-read.ts). Each poll is one activity that lists the window since the cursor stored in PostgreSQL
// and hands each voided order we recorded to its conversion workflow as a REFUND (activities/store-direct/voided.ts).
// The update `pollVoidedNow` asks for a poll now and answers its summary (operators, tests). A poll that cannot reach
// Google keeps the cursor and the next one tries again; the workflow ends once the platform is no longer
// store-direct, and continues-as-new after `pollsPerRun` polls so its history stays short.
import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { createStoreDirectActivities } from '../activities/store-direct/index.js';
import {
  DEFAULT_VOIDED_POLL_INTERVAL_MS,
  pollVoidedNowUpdate,
  type PlayVoidedSyncInput,
  type PlayVoidedSyncSummary,
} from './play-voided-sync-messages.js';
import { runPeriodicRead } from './periodic-read.js';

type StoreDirectActivities = ReturnType<typeof createStoreDirectActivities>;
// A regular activity: a poll may page through many voids and hand each to its conversion (heartbeats tell progress).
const { syncPlayVoided } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

const DEFAULT_POLLS_PER_RUN = 500;

export async function playVoidedSyncWorkflow(input: PlayVoidedSyncInput): Promise<PlayVoidedSyncSummary> {
  return runPeriodicRead({
    appId: input.appId,
    readNow: pollVoidedNowUpdate,
    intervalMs: input.intervalMs ?? DEFAULT_VOIDED_POLL_INTERVAL_MS,
    readsPerRun: input.pollsPerRun ?? DEFAULT_POLLS_PER_RUN,
    read: syncPlayVoided,
    failed: {
      summary: (error) => ({ active: true, listed: 0, refunded: 0, ignored: 0, syncedUntilMs: null, error }),
      warning: 'voided purchases poll failed',
    },
    continueAsNew: () => continueAsNew<typeof playVoidedSyncWorkflow>(input),
  });
}
