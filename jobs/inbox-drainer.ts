// Hands the purchase inbox's waiting events to their conversion workflows from the worker process: the events the
// API wrote but could not hand over (Temporal away or slow, the API killed mid-request). Bounded batches claimed
// with SKIP LOCKED and leased, one conversion's events in arrival order, conversions in parallel, an exponential
// back-off per event while Temporal stays away (actions/purchase-inbox.ts owns each step; this loop paces them).
// Several workers may each run one.
import { claimInboxRows, deliverInboxRow, holdInboxRows, pruneInbox, type InboxDeps } from '../actions/purchase-inbox.js';
import type { Logger } from '../runtime/logger.js';
import type { PurchaseInboxRow } from '../schema/types.js';

export interface DrainerOptions {
  /** Rows claimed per pass. */
  batchSize?: number;
  /** Conversions handed over at once. */
  concurrency?: number;
  /** Pause between passes that found less than a full batch. */
  idleMs?: number;
  /** How long a claimed row is left to this drainer before another may take it. */
  leaseSeconds?: number;
  /** Longest wait for one hand-over (the update's result) before it counts as failed. */
  handOverTimeoutMs?: number;
  /** Delivered rows are deleted after this many days (never those whose event failed). */
  retentionDays?: number;
}

export interface DrainerObserver {
  delivered?(n: number): void;
  failed?(n: number): void;
}

const PRUNE_EVERY_MS = 3_600_000;

export function startInboxDrainer(
  deps: InboxDeps,
  logger: Logger,
  opts: DrainerOptions = {},
  observer: DrainerObserver = {},
): { stop(): Promise<void> } {
  const batchSize = opts.batchSize ?? 100;
  const concurrency = opts.concurrency ?? 8;
  const idleMs = opts.idleMs ?? 1000;
  const leaseSeconds = opts.leaseSeconds ?? 60;
  const timeoutMs = opts.handOverTimeoutMs ?? 25_000;
  let stopped = false;
  let wake: () => void = () => undefined;
  let lastPrune = 0;

  async function deliverConversion(rows: PurchaseInboxRow[]): Promise<void> {
    for (const [i, row] of rows.entries()) {
      try {
        await withTimeout(deliverInboxRow(deps, row), timeoutMs);
        observer.delivered?.(1);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        // This one and the later ones of its conversion wait for the next attempt, in order.
        await holdInboxRows(deps, { rows: rows.slice(i), error: reason });
        observer.failed?.(1);
        logger.warn({ err, inboxId: row.id, attempts: row.attempts + 1 }, 'inbox event not handed over yet');
        return;
      }
    }
  }

  async function pass(): Promise<number> {
    const rows = await claimInboxRows(deps, { limit: batchSize, leaseSeconds });
    const byConversion = new Map<string, PurchaseInboxRow[]>();
    for (const row of rows) {
      const key = `${row.app_id}\u0000${row.conversion_key}`;
      byConversion.set(key, [...(byConversion.get(key) ?? []), row]);
    }
    const groups = [...byConversion.values()];
    await Promise.all(
      Array.from({ length: Math.min(concurrency, groups.length) }, async () => {
        for (let group = groups.shift(); group; group = groups.shift()) await deliverConversion(group);
      }),
    );
    if (rows.length > 0) logger.info({ rows: rows.length }, 'inbox drainer pass');
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneInbox(deps, { retentionDays: opts.retentionDays ?? 30 });
    }
    return rows.length;
  }

  const running = (async () => {
    while (!stopped) {
      let claimed = 0;
      try {
        claimed = await pass();
      } catch (err) {
        logger.warn({ err }, 'inbox drainer pass failed');
      }
      if (!stopped && claimed < batchSize) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, idleMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      wake();
      await running;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => undefined);
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
