// The loop both stores' per-app catch-ups run (workflows/notification-history.ts, App Store; workflows/
// play-voided-sync.ts, Google Play): read, wait the interval, read again; an update asks for a read now (after the one
// running: a read already running may have listed before the caller's change) and answers that read's summary. The
// loop ends once the read says the platform is no longer store-direct, and continues as new after `readsPerRun`
// reads (or the server's suggestion) so the history stays short. Each read is one activity of the store's.
import { ActivityFailure, allHandlersFinished, condition, log, setHandler, workflowInfo } from '@temporalio/workflow';
import type { UpdateDefinition } from '@temporalio/common';

export interface PeriodicRead<Summary extends { active: boolean }> {
  appId: string;
  /** The update that asks for a read now. */
  readNow: UpdateDefinition<Summary, []>;
  intervalMs: number;
  readsPerRun: number;
  /** The store's read activity. */
  read(input: { appId: string }): Promise<Summary>;
  /** The summary of a read whose activity failed past its retries, and the warning logged with its error. */
  failed: { summary(error: string): Summary; warning: string };
  /** The workflow's own continue-as-new with its input. */
  continueAsNew(): Promise<never>;
}

export async function runPeriodicRead<Summary extends { active: boolean }>(loop: PeriodicRead<Summary>): Promise<Summary> {
  let requested = 0;
  let completed = 0;
  let last: Summary | undefined;

  setHandler(loop.readNow, async () => {
    if (last?.active === false) return last;
    const ticket = ++requested;
    await condition(() => completed >= ticket);
    return last!;
  });

  for (let reads = 1; ; reads += 1) {
    const serving = requested;
    last = await readOrFailed(loop);
    completed = serving;
    if (!last.active) break;
    if (reads >= loop.readsPerRun || workflowInfo().continueAsNewSuggested) {
      // Answered updates finish first; one that arrives meanwhile is served here before the run continues as new.
      await condition(() => allHandlersFinished() || requested > completed);
      if (requested === completed) await loop.continueAsNew();
    }
    await condition(() => requested > completed, loop.intervalMs);
  }
  completed = requested;
  await condition(allHandlersFinished);
  return last;
}

/** One read; an activity that failed past its retries is a failed read (the cursor stays), not the end of the loop. */
async function readOrFailed<Summary extends { active: boolean }>(loop: PeriodicRead<Summary>): Promise<Summary> {
  try {
    return await loop.read({ appId: loop.appId });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const error = err.cause?.message ?? err.message;
    log.warn(loop.failed.warning, { appId: loop.appId, error });
    return loop.failed.summary(error);
  }
}
