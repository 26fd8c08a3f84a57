// `npm run bench:webhooks`: a realistic mix of provider webhooks (initial purchases, renewals, cancellations,
// refunds, 10% redeliveries) through API + worker + Temporal + PostgreSQL, each in its own process, beside its
// in-run references: the orchestration floor (update-with-start to workflows doing nothing; then carrying an
// event-sized payload; then awaiting one local activity doing nothing) and the same activity in-process. Then: the
// open-loop latency curve (Poisson arrivals at 25/50/75 % of the closed-loop capacity, beside the p99 of an ideal
// M/M/1 queue of that capacity), the scale-out shape (two `svc api` and two `svc worker` processes), and the
// `svc dev` shape (Temporal on its SQLite file, with and without the WAL pragmas). Every pipeline run checks
// afterwards that the ledger is exact, and prints the CPU each process spent per event (bench/cpu-split.ts); the
// open loop also prints the floor one update at a time.
//
// BENCH_SUBSCRIPTIONS (300), BENCH_CONNECTIONS (32 senders), BENCH_RATE (open loop: events/s; default the curve),
// BENCH_OPEN_SUBSCRIPTIONS (200 per open-loop point), BENCH_OPEN_ORGS (1: how many organizations they belong to),
// BENCH_SHAPES (comma list of memory,scale-out,open,sqlite; default all), BENCH_CPU_PROFILE_DIR (V8 CPU profiles of
// the API and worker processes, bench/infra.ts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { createPurchaseActivities } from '../activities/purchases/index.js';
import { createDb } from '../runtime/db.js';
import { createLogger } from '../runtime/logger.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../lib/purchase-event.js';
import { installRuntime } from '../worker/worker.js';
import { benchDatabase, benchTemporal, startServer, type BenchServer, type BenchTemporal } from './infra.js';
import { closedLoop, mm1P99, openLoop, pct, type LoadResult, type Run } from './load.js';
import { echoFloor, echoIdle, PLAIN_FLOOR, type EchoVariant } from './echo-floor.js';
import { cpuPerEvent, formatSplit, postgresPids, sampleCpu } from './cpu-split.js';
import { expected, freshAccount, ledgerCheck, plan, sendWebhook, type Plan } from './webhook-mix.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 300);
const OPEN_SUBSCRIPTIONS = Number(process.env.BENCH_OPEN_SUBSCRIPTIONS ?? 200);
const SENDERS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const OPEN_ORGS = Math.max(1, Number(process.env.BENCH_OPEN_ORGS ?? 1));
const SHAPES = new Set((process.env.BENCH_SHAPES ?? 'memory,scale-out,open,sqlite').split(',').map((s) => s.trim()));

/** `ratios`: throughput of one row over another's, each pair measured in the same run. */
export interface BenchTable {
  title: string;
  runs: Run[];
  ratios: { label: string; ratio: number }[];
}
export interface WebhookBench {
  tables: BenchTable[];
  curve: { percent: number; rate: number; capacity: number; run: OpenPoint }[];
  idle?: { starting: number; running: number };
}

const perSecond = (r: Run) => r.events / r.seconds;
const ratio = (label: string, a: Run, b: Run) => ({ label, ratio: perSecond(a) / perSecond(b) });

function row(name: string, load: LoadResult, events: number, check: { ok: boolean; detail: string }): Run {
  return {
    name,
    events,
    seconds: load.seconds,
    p50: pct(load.latencies, 0.5),
    p99: pct(load.latencies, 0.99),
    ledgerOk: check.ok,
    detail: check.detail,
  };
}

/** API and worker processes against one database and one Temporal, on a task queue of their own. */
interface Pipeline {
  apis: BenchServer[];
  workers: BenchServer[];
  temporal: BenchTemporal;
  stop(): Promise<void>;
}

async function startPipeline(databaseUrl: string, temporal: BenchTemporal, copies: number): Promise<Pipeline> {
  const temporalAddress = temporal.address;
  // Several APIs share their rate-limit windows through Redis, as in production (REDIS_URL when set).
  const env = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: '20',
    WORKER_METRICS_PORT: '0',
    ...(copies > 1 && process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  const workers = await Promise.all(Array.from({ length: copies }, () => startServer('bin/svc.js', ['worker'], env, null)));
  const apis = await Promise.all(Array.from({ length: copies }, () => startServer('bin/svc.js', ['api'], env)));
  return {
    apis,
    workers,
    temporal,
    stop: async () => {
      await Promise.all(apis.map((a) => a.stop()));
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

/** One closed-loop pipeline run on a fresh organization: senders spread over the APIs. */
async function closedPipeline(name: string, databaseUrl: string, pipeline: Pipeline): Promise<Run> {
  const { apis } = pipeline;
  const seed = await freshAccount(databaseUrl);
  const subs = plan(seed.creator_code, SUBSCRIPTIONS);
  const p = expected(subs);
  const pids = (servers: BenchServer[]) => () => servers.flatMap((s) => (s.child.pid ? [s.child.pid] : []));
  const groups = {
    API: pids(apis),
    worker: pids(pipeline.workers),
    Temporal: () => (pipeline.temporal.pid ? [pipeline.temporal.pid] : []),
    PostgreSQL: postgresPids,
    'load generator': () => [process.pid],
  };
  const before = sampleCpu(groups);
  const load = await closedLoop(subs, SENDERS, (e, sender) => sendWebhook(apis[sender % apis.length]!.url, seed, e));
  const cpu = cpuPerEvent(before, sampleCpu(groups), p.events.length);
  return { ...row(name, load, p.events.length, await ledgerCheck(databaseUrl, seed.org_id, p)), cpu };
}

/**
 * An open-loop point, with the first event of each subscription (it starts a conversion workflow) apart. The
 * subscriptions belong to OPEN_ORGS organizations (one by default: every event takes the same wallet lock).
 */
async function openPipeline(databaseUrl: string, api: BenchServer, rate: number): Promise<OpenPoint> {
  const accounts = await sequentially(
    Array.from({ length: OPEN_ORGS }, () => databaseUrl),
    freshAccount,
  );
  const books = accounts.map((seed) => ({ seed, subs: plan(seed.creator_code, Math.ceil(OPEN_SUBSCRIPTIONS / OPEN_ORGS)) }));
  const streams = books.flatMap(({ seed, subs }) => subs.map((events) => events.map((body) => ({ seed, body }))));
  const load = await openLoop(
    streams,
    rate,
    ({ seed, body }) => sendWebhook(api.url, seed, body),
    Math.random,
    ({ body }) => (body.event.type === 'INITIAL_PURCHASE' ? 'first' : 'later'),
  );
  const checks = await sequentially(books, ({ seed, subs }) => ledgerCheck(databaseUrl, seed.org_id, expected(subs)));
  const check = { ok: checks.every((c) => c.ok), detail: checks.map((c) => c.detail).join('; ') };
  const split = (name: string) => ({ p50: pct(load.byClass?.[name] ?? [], 0.5), p99: pct(load.byClass?.[name] ?? [], 0.99) });
  return {
    ...row(`open loop at ${rate.toFixed(1)} events/s`, load, streams.flat().length, check),
    first: split('first'),
    later: split('later'),
  };
}

/** `first`: initial purchases (a new conversion workflow each); `later`: every other event. */
type OpenPoint = Run & { first: { p50: number; p99: number }; later: { p50: number; p99: number } };

async function inProcess(databaseUrl: string): Promise<Run> {
  const seed = await freshAccount(databaseUrl);
  const subs = plan(seed.creator_code, SUBSCRIPTIONS);
  const p: Plan = expected(subs);
  const db = createDb(databaseUrl, 20);
  const activities = createPurchaseActivities({ db, platformFeePercent: 10 });
  const groups = { 'this process (normalising, the activity, knex and pg)': () => [process.pid], PostgreSQL: postgresPids };
  const before = sampleCpu(groups);
  const load = await closedLoop(subs, SENDERS, async (body) => {
    const event = normalizeSubproviderEvent(body, Date.now());
    await activities.applyPurchaseEvent({
      appId: seed.app_id,
      conversionKey: event.originalTransactionId!,
      idempotencyKey: idempotencyKey(seed.app_id, event),
      event,
    });
  });
  const cpu = cpuPerEvent(before, sampleCpu(groups), p.events.length);
  await db.destroy();
  return {
    ...row('same activity in-process (no orchestration)', load, p.events.length, await ledgerCheck(databaseUrl, seed.org_id, p)),
    cpu,
  };
}

/**
 * The plain floor, then the same carrying one conversion event's update as the API sends it, then that awaiting a
 * local activity doing nothing: what the design costs per event before any of our work.
 */
function floorVariants(): EchoVariant[] {
  const body = plan('BENCH', 1)[0]![0]!;
  const event = normalizeSubproviderEvent(body, Date.now());
  const payload = JSON.stringify({
    appId: 'app_bench',
    conversionKey: event.originalTransactionId,
    idempotencyKey: idempotencyKey('app_bench', event),
    event,
  });
  return [
    PLAIN_FLOOR,
    { name: `floor, each update carrying an event-sized payload (${payload.length} bytes)`, payload, localActivity: false },
    { name: 'floor + one local activity doing nothing, event-sized payload', payload, localActivity: true },
  ];
}

/** Runs `fn` on each item, one after the other (each run must have the machine to itself). */
async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await fn(item));
  return results;
}

async function devServer(sqlite?: { pragmas: string[] }): Promise<BenchTemporal> {
  if (!sqlite) return benchTemporal();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-temporal-'));
  const server = await benchTemporal({ dbFilename: path.join(dir, 'temporal.db'), sqlitePragmas: sqlite.pragmas }, undefined);
  return {
    address: server.address,
    pid: server.pid,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function runWebhookBench(): Promise<WebhookBench> {
  installRuntime(createLogger('warn'), { handleSignals: false });
  const database = await benchDatabase('svc_bench_webhooks');
  const result: WebhookBench = { tables: [], curve: [] };
  try {
    if (SHAPES.has('memory') || SHAPES.has('open') || SHAPES.has('scale-out')) {
      const temporal = await devServer();
      try {
        const runs: Run[] = [];
        const ratios: BenchTable['ratios'] = [];
        const single = await startPipeline(database.url, temporal, 1);
        let capacity = 0;
        try {
          const pipeline = await closedPipeline('webhook -> API -> inbox -> Temporal -> worker -> PostgreSQL', database.url, single);
          runs.push(pipeline);
          capacity = pipeline.events / pipeline.seconds;
          const [floor, sized, withActivity] = await sequentially(floorVariants(), (variant) =>
            echoFloor(temporal.address, pipeline.events, SUBSCRIPTIONS, SENDERS, temporal.pid, variant),
          );
          runs.push(floor!, sized!, withActivity!, await inProcess(database.url));
          ratios.push(
            ratio('pipeline / floor', pipeline, floor!),
            ratio('floor with an event-sized payload / floor', sized!, floor!),
            ratio('floor + one local activity / floor', withActivity!, floor!),
            ratio('pipeline / (floor + one local activity)', pipeline, withActivity!),
          );
          if (SHAPES.has('open')) {
            result.idle = await echoIdle(temporal.address);
            const fixed = process.env.BENCH_RATE ? [Number(process.env.BENCH_RATE)] : undefined;
            for (const percent of fixed ? [0] : [25, 50, 75]) {
              const rate = fixed ? fixed[0]! : (capacity * percent) / 100;
              result.curve.push({ percent, rate, capacity, run: await openPipeline(database.url, single.apis[0]!, rate) });
            }
          }
        } finally {
          await single.stop();
        }
        if (SHAPES.has('scale-out')) {
          const two = await startPipeline(database.url, temporal, 2);
          try {
            runs.push(
              await closedPipeline(
                `scale-out: 2 API + 2 worker processes, one PostgreSQL and Temporal${process.env.REDIS_URL ? ' and Redis' : ''}`,
                database.url,
                two,
              ),
            );
          } finally {
            await two.stop();
          }
        }
        result.tables.push({ title: 'Temporal dev server in memory (the test shape)', runs, ratios });
      } finally {
        await temporal.stop();
      }
    }
    if (SHAPES.has('sqlite')) {
      const runs: Run[] = [];
      const ratios: BenchTable['ratios'] = [];
      for (const [label, pragmas] of [
        ['SQLite file, default pragmas', []],
        ['SQLite file, journal_mode=WAL synchronous=NORMAL (svc dev)', ['journal_mode=WAL', 'synchronous=NORMAL']],
      ] as const) {
        const temporal = await devServer({ pragmas: [...pragmas] });
        try {
          const pipeline = await startPipeline(database.url, temporal, 1);
          try {
            const run = await closedPipeline(`pipeline, ${label}`, database.url, pipeline);
            const floor = {
              ...(await echoFloor(temporal.address, run.events, SUBSCRIPTIONS, SENDERS, temporal.pid)),
              name: `floor, ${label}`,
            };
            runs.push(run, floor);
            ratios.push(ratio(`pipeline / floor, ${label}`, run, floor));
          } finally {
            await pipeline.stop();
          }
        } finally {
          await temporal.stop();
        }
      }
      result.tables.push({ title: 'the `svc dev` shape: Temporal dev server on its SQLite file', runs, ratios });
    }
  } finally {
    await database.stop();
  }
  return result;
}

export function printWebhookTable(bench: WebhookBench): void {
  console.log(`\nPurchase webhooks: ${SUBSCRIPTIONS} subscriptions, ${SENDERS} concurrent senders (closed loop), 10% redeliveries`);
  for (const table of bench.tables) {
    console.log(`\n${table.title}\n`);
    console.log('| path | events | events/s | p50 ms | p99 ms | ledger exact |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const r of table.runs) {
      console.log(
        `| ${r.name} | ${r.events} | ${Math.round(r.events / r.seconds)} ` +
          `| ${r.p50} | ${r.p99} | ${r.ledgerOk ? 'yes' : 'NO'} (${r.detail}) |`,
      );
    }
    console.log('');
    for (const { label, ratio: r } of table.ratios) console.log(`${label} throughput: ${r.toFixed(2)}`);
    for (const r of table.runs) {
      const split = formatSplit(r.cpu, os.availableParallelism());
      if (split) console.log(`- ${r.name.split(':')[0]}: ${split}`);
    }
  }
  if (bench.curve.length > 0) {
    console.log(`\nOpen loop (Poisson arrivals, ${OPEN_SUBSCRIPTIONS} subscriptions per point, latency from arrival)\n`);
    console.log(
      '| load | rate events/s | events | p50 ms | p99 ms | first events p50 / p99 | later events p50 / p99 | M/M/1 p99 ms | ledger exact |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const { percent, rate, capacity, run } of bench.curve) {
      console.log(
        `| ${percent ? `${percent} % of closed-loop capacity` : 'BENCH_RATE'} | ${rate.toFixed(1)} ` +
          `| ${run.events} | ${run.p50} | ${run.p99} | ${run.first.p50} / ${run.first.p99} ` +
          `| ${run.later.p50} / ${run.later.p99} | ${mm1P99(rate, capacity)} | ${run.ledgerOk ? 'yes' : 'NO'} |`,
      );
    }
    console.log(
      '\nfirst events: the initial purchase of each subscription, which ' +
        'starts its conversion workflow; later events: renewals, refunds, cancellations',
    );
    console.log(
      "M/M/1 p99: an ideal queue with the pipeline's closed-loop capacity at the " +
        'same rate (Poisson arrivals, exponential service), before any fixed latency',
    );
    if (bench.idle)
      console.log(
        `floor one update at a time: p50 ${bench.idle.starting} ms when it starts its workflow, ${bench.idle.running} ms to a running one`,
      );
  }
}

export function allLedgersExact(bench: WebhookBench): boolean {
  return bench.tables.every((t) => t.runs.every((r) => r.ledgerOk)) && bench.curve.every((c) => c.run.ledgerOk);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bench = await runWebhookBench();
  printWebhookTable(bench);
  if (!allLedgersExact(bench)) process.exit(1);
}
