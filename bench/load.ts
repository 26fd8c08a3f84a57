// Load shapes for the pipeline benchmarks. Each "stream" is a list of requests that must go in order (one
// subscription's purchase, renewals, refund): a stream never has two requests in flight.
//
// Closed loop: N senders, each sends, waits for the answer, sends the next; throughput is what the system gives, and
// latency is N / throughput (so a latency target alone says nothing there).
// Open loop: requests arrive as a Poisson process at a fixed rate whatever the answers do; each arrival takes the
// next request of an idle stream. Latency counts from the arrival, so time queued behind a slow answer is included
// (no coordinated omission). Streams start at random through the run, so that the mix of requests (first requests,
// which cost more, and later ones) stays what the closed loop measured its capacity with from start to end.
import type { CpuSplit } from './cpu-split.js';

/** `byClass`: the same latencies split by the caller's classification of the items (sorted too). */
export interface LoadResult {
  latencies: number[];
  seconds: number;
  byClass?: Record<string, number[]>;
}

/** A benchmark table row: one path under one load, and whether the books were exact afterwards. */
export interface Run {
  name: string;
  events: number;
  seconds: number;
  p50: number;
  p99: number;
  ledgerOk: boolean;
  detail: string;
  cpu?: CpuSplit;
}

export async function closedLoop<T>(
  streams: T[][],
  senders: number,
  send: (item: T, sender: number) => Promise<void>,
): Promise<LoadResult> {
  const queue = [...streams];
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async (_, sender) => {
      for (let items = queue.shift(); items; items = queue.shift()) {
        for (const item of items) {
          const t0 = performance.now();
          await send(item, sender);
          latencies.push(performance.now() - t0);
        }
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

export async function openLoop<T>(
  streams: T[][],
  ratePerSecond: number,
  send: (item: T, n: number) => Promise<void>,
  random: () => number = Math.random,
  classify?: (item: T) => string,
): Promise<LoadResult> {
  const total = streams.reduce((n, s) => n + s.length, 0);
  type Stream = { items: T[]; next: number };
  const unstarted: Stream[] = streams.filter((s) => s.length > 0).map((items) => ({ items, next: 0 }));
  const idle: Stream[] = []; // started, nothing in flight, more to send
  let remaining = total;
  const waiting: number[] = []; // arrival times that found no idle stream
  const latencies: number[] = [];
  const byClass: Record<string, number[]> = {};
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let failure: unknown;

  // A new stream is started with the chance that first requests have among those left: their share stays even.
  const nextStream = (): Stream | undefined => {
    const startOne = unstarted.length > 0 && (idle.length === 0 || random() < unstarted.length / remaining);
    return startOne ? unstarted.shift() : idle.shift();
  };

  const dispatch = (arrivedAt: number) => {
    const stream = nextStream();
    if (!stream) {
      waiting.push(arrivedAt);
      return;
    }
    remaining -= 1;
    const item = stream.items[stream.next++]!;
    const p = send(item, sent++)
      .then(
        () => {
          latencies.push(performance.now() - arrivedAt);
          if (classify) (byClass[classify(item)] ??= []).push(performance.now() - arrivedAt);
          if (stream.next < stream.items.length) idle.push(stream);
          const queued = waiting.shift();
          if (queued !== undefined) dispatch(queued);
        },
        (err: unknown) => {
          failure ??= err;
        },
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const started = performance.now();
  let nextAt = started;
  for (let arrivals = 0; arrivals < total && failure === undefined; arrivals++) {
    nextAt += (-Math.log(1 - random()) / ratePerSecond) * 1000;
    const wait = nextAt - performance.now();
    // Yield even when late: a send that has finished must hand its stream back to `idle` before the next arrival
    // is dispatched, or a loop that fell behind (a loaded machine) would start a new stream for every late arrival.
    await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
    dispatch(nextAt);
  }
  while ((inFlight.size > 0 || waiting.length > 0) && failure === undefined) await Promise.race(inFlight);
  if (failure !== undefined) throw failure;
  for (const list of Object.values(byClass)) list.sort((a, b) => a - b);
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000, ...(classify ? { byClass } : {}) };
}

/** The p-th percentile of sorted latencies, in ms with one decimal. */
export const pct = (sorted: number[], p: number): number =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;

/**
 * The p99 latency (ms) of an ideal queue with the same capacity at the same load: M/M/1 (Poisson arrivals, one
 * server, exponential service), whose time in system is exponential with rate `capacity - rate`. The open loop's
 * in-run reference: what the queueing alone costs a system of this throughput, before any fixed latency.
 */
export const mm1P99 = (rate: number, capacity: number): number =>
  rate < capacity ? Math.round((Math.log(100) / (capacity - rate)) * 1000) : Infinity;
