// The durable poll of Google Play's voided purchases for one Android store-direct app, `play-voided-sync/{app_id}`
// (started at activation and, idempotently, at worker start): poll, wait the interval, poll again. Each poll is one
// activity that lists the window since the cursor stored in PostgreSQL and hands each voided order we recorded to
// its conversion workflow as a REFUND (activities/store-direct/voided.ts). The update `pollVoidedNow` asks for a
// poll now and answers its summary (operators, tests). A poll that cannot reach Google keeps the cursor and the
// next one tries again; the workflow ends once the platform is no longer store-direct, and continues-as-new after
// `pollsPerRun` polls so its history stays short.
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
import type { createStoreDirectActivities } from '../activities/store-direct/index.js';
import {
  DEFAULT_VOIDED_POLL_INTERVAL_MS,
  pollVoidedNowUpdate,
  type PlayVoidedSyncInput,
  type PlayVoidedSyncSummary,
} from './play-voided-sync-messages.js';

type StoreDirectActivities = ReturnType<typeof createStoreDirectActivities>;
// A regular activity: a poll may page through many voids and hand each to its conversion (heartbeats tell progress).
const { syncPlayVoided } = proxyActivities<StoreDirectActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

const DEFAULT_POLLS_PER_RUN = 500;

export async function playVoidedSyncWorkflow(input: PlayVoidedSyncInput): Promise<PlayVoidedSyncSummary> {
  const interval = input.intervalMs ?? DEFAULT_VOIDED_POLL_INTERVAL_MS;
  let requested = 0;
  let completed = 0;
  let last: PlayVoidedSyncSummary | undefined;

  setHandler(pollVoidedNowUpdate, async () => {
    // A poll already running may have listed before the caller's change: the answer is that of a poll begun after.
    if (last?.active === false) return last;
    const ticket = ++requested;
    await condition(() => completed >= ticket);
    return last!;
  });

  for (let polls = 1; ; polls += 1) {
    const serving = requested;
    last = await poll(input.appId);
    completed = serving;
    if (!last.active) break;
    if (polls >= (input.pollsPerRun ?? DEFAULT_POLLS_PER_RUN) || workflowInfo().continueAsNewSuggested) {
      // Answered updates finish first; one that arrives meanwhile is served here before the run continues as new.
      await condition(() => allHandlersFinished() || requested > completed);
      if (requested === completed) await continueAsNew<typeof playVoidedSyncWorkflow>(input);
    }
    await condition(() => requested > completed, interval);
  }
  completed = requested;
  await condition(allHandlersFinished);
  return last;
}

/** One poll; an activity that failed past its retries is a failed poll (the cursor stays), not the end of the loop. */
async function poll(appId: string): Promise<PlayVoidedSyncSummary> {
  try {
    return await syncPlayVoided({ appId });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    log.warn('voided purchases poll failed', { appId, error: err.cause?.message ?? err.message });
    return { active: true, listed: 0, refunded: 0, ignored: 0, syncedUntilMs: null, error: err.cause?.message ?? err.message };
  }
}
