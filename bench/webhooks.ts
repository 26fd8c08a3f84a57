// `npm run bench:webhooks`: a realistic mix of provider webhooks (initial purchases, renewals, cancellations,
// refunds, 10% redeliveries) from 32 concurrent senders through API + worker + Temporal + PostgreSQL, each in its
// own process; then the same mix applied through the same activity called directly in-process (no orchestration).
// Both runs check afterwards that the ledger holds exactly the expected reservations.
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createPurchaseActivities } from '../activities/purchases/index.js';
import { appendLedgerEntry } from '../db/wallet-ledger.js';
import { seedDemoAccount, type SeedResult } from '../cli/seed.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../lib/purchase-event.js';
import { createDb } from '../runtime/db.js';
import { freePort } from '../runtime/ports.js';
import { resolveBinary, TEMPORAL_CLI } from '../runtime/temporal-binaries.js';
import { startTemporalDevServer } from '../runtime/temporal-dev-server.js';
import { subscription, type ProviderBody } from '../test/helpers/subprovider-events.js';
import { installRuntime } from '../worker/worker.js';
import { createLogger } from '../runtime/logger.js';
import { echoUpdate, echoWorkflow } from './echo-workflow.js';
import { benchDatabase, startServer } from './infra.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 300);
const SENDERS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// $9.99 at 30% = 2,997,000 micro-USD commission, + 10% platform fee = 299,700: 3,296,700 reserved per paid event.
const RESERVE_PER_PAID_EVENT = 3_296_700;

interface Plan { events: ProviderBody[]; expectedReservedMicros: number; distinct: number }

/** Per subscription, in order: purchase, renewals, maybe a refund or a cancellation; 10% of sends repeat one. */
function plan(code: string): ProviderBody[][] {
  return Array.from({ length: SUBSCRIPTIONS }, (_, i) => {
    const sub = subscription(`bench-${i}-${randomBytes(3).toString('hex')}`, code);
    const events = [sub('initial_purchase'), sub('renewal'), sub('renewal')];
    if (i % 10 === 0) events.push(sub('refund', { transaction_id: events[2]!.event.transaction_id, price: -9.99 }));
    else if (i % 4 === 0) events.push(sub('cancellation'));
    const withRedeliveries: ProviderBody[] = [];
    events.forEach((e, k) => {
      withRedeliveries.push(e);
      if ((i * 7 + k) % 10 === 0) withRedeliveries.push(e); // the provider redelivers
    });
    return withRedeliveries;
  });
}

function expected(subs: ProviderBody[][]): Plan {
  let reserved = 0;
  let distinct = 0;
  for (const events of subs) {
    const unique = [...new Map(events.map((e) => [e.event.id, e])).values()];
    distinct += unique.length;
    const paid = unique.filter((e) => ['INITIAL_PURCHASE', 'RENEWAL'].includes(e.event.type)).length;
    const refunds = unique.filter((e) => e.event.type === 'REFUND').length;
    reserved += (paid - refunds) * RESERVE_PER_PAID_EVENT;
  }
  return { events: subs.flat(), expectedReservedMicros: reserved, distinct };
}

interface Run { name: string; events: number; seconds: number; p50: number; p99: number; ledgerOk: boolean; detail: string }

async function drive(subs: ProviderBody[][], send: (e: ProviderBody) => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const queue = [...subs];
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: SENDERS }, async () => {
    for (let events = queue.shift(); events; events = queue.shift()) {
      for (const e of events) {
        const t0 = performance.now();
        await send(e);
        latencies.push(performance.now() - t0);
      }
    }
  }));
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

const pct = (sorted: number[], p: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;

async function freshAccount(databaseUrl: string): Promise<SeedResult> {
  const db = createDb(databaseUrl, 2);
  try {
    const seed = await seedDemoAccount(db, { baseUrl: 'http://bench', dashboardUrl: 'http://bench/dashboard' });
    await appendLedgerEntry(db, { orgId: seed.org_id, entryType: 'topup', balanceDeltaMicros: 100_000_000_000_000, reservedDeltaMicros: 0, idempotencyKey: `topup:bench:${seed.org_id}` });
    return seed;
  } finally {
    await db.destroy();
  }
}

async function ledgerCheck(databaseUrl: string, orgId: string, p: Plan): Promise<{ ok: boolean; detail: string }> {
  const db = createDb(databaseUrl, 1);
  try {
    const row = await db('wallet_ledger').where('org_id', orgId).first(db.raw('coalesce(sum(reserved_delta_micros), 0)::bigint as reserved'));
    const events = await db('purchase_events as p').join('apps as a', 'a.id', 'p.app_id').where('a.org_id', orgId).count<{ count: string }[]>('* as count');
    const reserved = Number((row as { reserved: number }).reserved);
    const recorded = Number(events[0]!.count);
    const ok = reserved === p.expectedReservedMicros && recorded === p.distinct;
    return { ok, detail: `reserved ${reserved} / expected ${p.expectedReservedMicros}; events ${recorded} / ${p.distinct}` };
  } finally {
    await db.destroy();
  }
}

export async function runWebhookBench(): Promise<Run[]> {
  installRuntime(createLogger('warn'), { handleSignals: false });
  const database = await benchDatabase('svc_bench_webhooks');
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  let stopTemporal: () => Promise<void> = async () => undefined;
  if (!temporalAddress) {
    const server = await startTemporalDevServer({ binary: (await resolveBinary(TEMPORAL_CLI)).path, port: await freePort() });
    temporalAddress = server.address;
    stopTemporal = () => server.stop();
  }
  const env = { DATABASE_URL: database.url, TEMPORAL_ADDRESS: temporalAddress, TEMPORAL_TASK_QUEUE: `bench-${randomBytes(3).toString('hex')}`, LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_POOL_MAX: '20' };
  const worker = await startServer('bin/svc.js', ['worker'], env, null);
  const api = await startServer('bin/svc.js', ['api'], env);
  const runs: Run[] = [];
  try {
    // Through the whole pipeline.
    const seed = await freshAccount(database.url);
    const subs = plan(seed.creator_code);
    const p = expected(subs);
    const pipeline = await drive(subs, async (e) => {
      const res = await fetch(`${api.url}/api/webhooks/subprovider/${seed.app_id}`, {
        method: 'POST', headers: { authorization: `Bearer ${seed.webhook_secret}`, 'content-type': 'application/json' }, body: JSON.stringify(e),
      });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    const check = await ledgerCheck(database.url, seed.org_id, p);
    runs.push({ name: 'webhook -> API -> Temporal -> worker -> PostgreSQL', events: p.events.length, seconds: pipeline.seconds, p50: pct(pipeline.latencies, 0.5), p99: pct(pipeline.latencies, 0.99), ledgerOk: check.ok, detail: check.detail });

    // The orchestration floor: update-with-start on entity workflows that do nothing, same concurrency.
    runs.push(await echoFloor(temporalAddress, p.events.length, subs.length));

    // The same activity, called directly (no HTTP, no Temporal).
    const direct = await freshAccount(database.url);
    const directSubs = plan(direct.creator_code);
    const dp = expected(directSubs);
    const db = createDb(database.url, 20);
    const activities = createPurchaseActivities({ db, platformFeePercent: 10 });
    const inProcess = await drive(directSubs, async (body) => {
      const event = normalizeSubproviderEvent(body, Date.now());
      await activities.applyPurchaseEvent({ appId: direct.app_id, conversionKey: event.originalTransactionId!, idempotencyKey: idempotencyKey(direct.app_id, event), event });
    });
    await db.destroy();
    const dcheck = await ledgerCheck(database.url, direct.org_id, dp);
    runs.push({ name: 'same activity in-process (no orchestration)', events: dp.events.length, seconds: inProcess.seconds, p50: pct(inProcess.latencies, 0.5), p99: pct(inProcess.latencies, 0.99), ledgerOk: dcheck.ok, detail: dcheck.detail });
  } finally {
    await api.stop();
    await worker.stop();
    await stopTemporal();
    await database.stop();
  }
  return runs;
}

async function echoFloor(address: string, events: number, workflows: number): Promise<Run> {
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `echo-${randomBytes(3).toString('hex')}`;
  const worker = await Worker.create({ connection, taskQueue, workflowsPath: fileURLToPath(new URL('./echo-workflow.ts', import.meta.url)) });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await worker.runUntil(Promise.all(Array.from({ length: SENDERS }, async () => {
    for (let i = next++; i < events; i = next++) {
      const t0 = performance.now();
      await client.workflow.executeUpdateWithStart(echoUpdate, {
        args: ['x'], updateId: `u${i}`,
        startWorkflowOperation: new WithStartWorkflowOperation(echoWorkflow, { workflowId: `echo-${taskQueue}-${i % workflows}`, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' }),
      });
      latencies.push(performance.now() - t0);
    }
  })));
  const seconds = (performance.now() - started) / 1000;
  await client.connection.close();
  await connection.close();
  latencies.sort((a, b) => a - b);
  return { name: 'floor: update-with-start to a workflow doing nothing (no HTTP, no DB)', events, seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), ledgerOk: true, detail: 'no money moved' };
}

export function printWebhookTable(runs: Run[]): void {
  console.log(`\nPurchase webhooks: ${SUBSCRIPTIONS} subscriptions, ${SENDERS} concurrent senders, 10% redeliveries\n`);
  console.log('| path | events | events/s | p50 ms | p99 ms | ledger exact |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of runs) {
    console.log(`| ${r.name} | ${r.events} | ${Math.round(r.events / r.seconds)} | ${r.p50} | ${r.p99} | ${r.ledgerOk ? 'yes' : 'NO'} (${r.detail}) |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = await runWebhookBench();
  printWebhookTable(runs);
  if (runs.some((r) => !r.ledgerOk)) process.exit(1);
}
