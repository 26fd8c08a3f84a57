// A pass run on a timer in the worker process (the outbox sender, the creator digests): one pass at a time, so a
// slow pass is not overlapped by the next tick and stop() awaits the only pass in flight; a failed pass is logged
// and the next tick tries again.
import type { Logger } from '../runtime/logger.js';

export interface PeriodicPass {
  everyMs: number;
  /** One pass; answers how many items it handled (logged when any). */
  run: () => Promise<number>;
  /** The log lines: `done` with the count under `counted` when a pass handled any, `failed` with the error. */
  log: { done: string; counted: string; failed: string };
}

export function startPeriodicPass(pass: PeriodicPass, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    running = pass
      .run()
      .then((n) => {
        if (n > 0) logger.info({ [pass.log.counted]: n }, pass.log.done);
      })
      .catch((err: unknown) => logger.warn({ err }, pass.log.failed))
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, pass.everyMs);
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
