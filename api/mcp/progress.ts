// Progress notifications for a tool call whose client sent `_meta.progressToken`. A handler that starts a workflow
// reports it through ctx.state.progress (api/context.ts); from then on the workflow's own history tells each step
// (activity scheduled, done, failed), read from Temporal rather than announced by the code, so what the agent sees
// is what an operator sees in the Temporal UI. `finish` reads the history once more, then says done.
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProgressListener } from '../context.js';

export type SendProgress = (progress: number, message: string) => Promise<void>;

export interface ProgressReport {
  listener: ProgressListener;
  /** Reports the steps not yet seen, then `message`; resolves once every notification was handed to the transport. */
  finish(message: string): Promise<void>;
}

const POLL_MS = 200;

interface StepWatcher {
  stop(): Promise<void>;
}

/** Polls the workflow's history and emits one line per activity step it has not reported yet. */
function watchSteps(temporal: Client, workflowId: string, emit: (message: string) => void, pollMs: number): StepWatcher {
  const reported = new Set<string>();
  const stopping = new AbortController();
  const poll = async () => {
    const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
    const names = new Map<string, string>();
    for (const event of history.events ?? []) {
      const id = String(event.eventId);
      const scheduled = event.activityTaskScheduledEventAttributes;
      const completed = event.activityTaskCompletedEventAttributes;
      const failed = event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes;
      let line: string | undefined;
      if (scheduled) {
        names.set(id, scheduled.activityType?.name ?? 'activity');
        line = `step: ${names.get(id)} running`;
      } else if (completed) {
        line = `step: ${names.get(String(completed.scheduledEventId)) ?? 'activity'} done`;
      } else if (failed) {
        line = `step: ${names.get(String(failed.scheduledEventId)) ?? 'activity'} failed`;
      }
      if (line && !reported.has(id)) {
        reported.add(id);
        emit(line);
      }
    }
  };
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await poll().catch(() => undefined); // a missed poll is caught up by the next one or by stop()
      await sleep(pollMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
      await poll().catch(() => undefined);
    },
  };
}

export function progressReport(send: SendProgress, temporal: Client, pollMs = POLL_MS): ProgressReport {
  let count = 0;
  // Notifications leave in order, one at a time; a client gone away must not fail the call itself.
  let queue = Promise.resolve();
  const emit = (message: string) => {
    count += 1;
    const progress = count;
    queue = queue.then(() => send(progress, message)).catch(() => undefined);
  };
  const watchers: StepWatcher[] = [];
  return {
    listener: ({ message, workflowId }) => {
      emit(message);
      if (workflowId) watchers.push(watchSteps(temporal, workflowId, emit, pollMs));
    },
    async finish(message) {
      await Promise.all(watchers.map((w) => w.stop()));
      emit(message);
      await queue;
    },
  };
}
