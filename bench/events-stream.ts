// `npm run bench:events`: the dashboard's live events stream. `svc api` and `svc worker` in their own processes
// (Temporal dev server, PostgreSQL); BENCH_STREAMS (50) signed-in streams of one app stay open while BENCH_CONNECTIONS
// (8) senders post BENCH_EVENTS (200) new production purchases as provider webhooks. Each purchase streams twice
// (on arrival, then with its outcome). Measured: feed entries delivered per second over all streams, and for each
// purchase on each stream the delay from the webhook's answer to the stream message with its outcome (negative:
// already on the stream when the answer came back), and from the webhook's request to that message. In-run baseline: the NOTIFY round trip alone (a committed
// pg_notify to a LISTEN connection, same database), the floor under any LISTEN/NOTIFY delivery.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDb } from '../runtime/db.js';
import { freePort } from '../runtime/ports.js';
import { resolveBinary, TEMPORAL_CLI } from '../runtime/temporal-binaries.js';
import { startTemporalDevServer } from '../runtime/temporal-dev-server.js';
import { signInDashboard } from '../test/helpers/dashboard.js';
import { openSse, type SseStream } from '../test/helpers/sse.js';
import { subscription } from '../test/helpers/subprovider-events.js';
import { benchDatabase, startServer } from './infra.js';
import { pct } from './load.js';
import { freshAccount, sendWebhook } from './webhook-mix.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const SENDERS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const NOTIFY_SAMPLES = 500;

export interface EventsRun { name: string; count: number; seconds: number; perSecond: number; p50: number; p99: number; ok: boolean; detail: string }

/** Time from a committed pg_notify to its arrival on a LISTEN connection, one at a time. */
async function notifyRoundTrip(databaseUrl: string): Promise<EventsRun> {
  const listener = new pg.Client({ connectionString: databaseUrl });
  const sender = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([listener.connect(), sender.connect()]);
  await listener.query('listen svc_bench_rtt');
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < NOTIFY_SAMPLES; i += 1) {
    const heard = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
    const t0 = performance.now();
    await sender.query("select pg_notify('svc_bench_rtt', $1)", [String(i)]);
    await heard;
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all([listener.end(), sender.end()]);
  latencies.sort((a, b) => a - b);
  return { name: 'baseline: NOTIFY round trip alone (commit to LISTEN connection)', count: NOTIFY_SAMPLES, seconds, perSecond: NOTIFY_SAMPLES / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), ok: true, detail: 'one at a time' };
}

interface Outcome { at: number; seq: number }

export async function runEventsStreamBench(): Promise<EventsRun[]> {
  const database = await benchDatabase('svc_bench_events');
  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  let stopTemporal: () => Promise<void> = async () => undefined;
  if (!temporalAddress) {
    const server = await startTemporalDevServer({ binary: (await resolveBinary(TEMPORAL_CLI)).path, port: await freePort() });
    temporalAddress = server.address;
    stopTemporal = () => server.stop();
  }
  const env = {
    DATABASE_URL: database.url, TEMPORAL_ADDRESS: temporalAddress, TEMPORAL_TASK_QUEUE: `bench-${randomBytes(3).toString('hex')}`, LOG_LEVEL: 'warn',
    NODE_ENV: 'production', DATABASE_POOL_MAX: '20', SVC_MASTER_KEY: randomBytes(32).toString('base64'), WORKER_METRICS_PORT: '0',
  };
  const worker = await startServer('bin/svc.js', ['worker'], env, null);
  const api = await startServer('bin/svc.js', ['api'], env);
  const streams: SseStream[] = [];
  try {
    const seed = await freshAccount(database.url);
    const session = await signInDashboard(api.url, seed.user_email, seed.user_password);
    const bodies = Array.from({ length: EVENTS + 8 }, () => subscription(`bench-${randomUUID()}`, seed.creator_code)('initial_purchase'));
    // Warm-up (workflow bundle, pools) before the streams open: not measured.
    for (const body of bodies.splice(0, 8)) await sendWebhook(api.url, seed, body);
    await new Promise((r) => setTimeout(r, 1000));
    const feed = await feedOf(database.url, seed.app_id);
    const from = feed.at(-1) ?? 0;

    // Per stream: when each purchase's outcome message arrived (by event id), and every seq it delivered.
    const outcomes: Map<string, Outcome>[] = [];
    const seqs: number[][] = [];
    for (let i = 0; i < STREAMS; i += 1) {
      const s = await openSse(`${api.url}/dashboard/apps/${seed.app_id}/events/stream?after=${from}`, { cookie: session.cookie });
      if (s.status !== 200) throw new Error(`stream answered ${s.status}: ${await s.text()}`);
      const mine = new Map<string, Outcome>();
      const delivered: number[] = [];
      let read = 0;
      // SseStream keeps every message; stamp the new ones as they arrive.
      const stamp = () => {
        for (; read < s.messages.length; read += 1) {
          const m = JSON.parse(s.messages[read]!.data) as { seq: number; event: { event_id: string; attributed: boolean; organic: boolean; failed: boolean } };
          delivered.push(m.seq);
          if (m.event.attributed || m.event.organic || m.event.failed) mine.set(m.event.event_id, { at: performance.now(), seq: m.seq });
        }
      };
      s.onMessage(stamp);
      streams.push(s);
      outcomes.push(mine);
      seqs.push(delivered);
    }

    const answered = new Map<string, number>();
    const sent = new Map<string, number>();
    const started = performance.now();
    const queue = [...bodies];
    await Promise.all(Array.from({ length: SENDERS }, async () => {
      for (let body = queue.shift(); body; body = queue.shift()) {
        const t0 = performance.now();
        const res = await fetch(`${api.url}/api/webhooks/subprovider/${seed.app_id}`, {
          method: 'POST', headers: { authorization: `Bearer ${seed.webhook_secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
        });
        const answer = await res.json() as { event_id: string };
        if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
        answered.set(answer.event_id, performance.now());
        sent.set(answer.event_id, t0);
      }
    }));
    const deadline = Date.now() + 60_000;
    let expected = (await feedOf(database.url, seed.app_id)).filter((seq) => seq > from);
    while (Date.now() < deadline && (seqs.some((d) => d.length < expected.length) || outcomes.some((o) => o.size < answered.size))) {
      await new Promise((r) => setTimeout(r, 250));
      expected = (await feedOf(database.url, seed.app_id)).filter((seq) => seq > from);
    }
    const seconds = (Math.max(...outcomes.flatMap((o) => [...o.values()].map((x) => x.at))) - started) / 1000;

    const delays: number[] = [];
    const sinceSent: number[] = [];
    let missing = 0;
    for (const o of outcomes) {
      for (const [eventId, at] of answered) {
        const got = o.get(eventId);
        if (!got) {
          missing += 1;
          continue;
        }
        delays.push(got.at - at);
        sinceSent.push(got.at - sent.get(eventId)!);
      }
    }
    delays.sort((a, b) => a - b);
    sinceSent.sort((a, b) => a - b);
    const total = seqs.reduce((n, d) => n + d.length, 0);
    const exact = seqs.every((d) => d.length === expected.length && d.every((seq, i) => seq === expected[i]));
    return [
      {
        name: `${STREAMS} open streams, ${EVENTS} purchase webhooks from ${SENDERS} senders (API -> workflow -> PostgreSQL -> NOTIFY -> SSE)`,
        count: total, seconds, perSecond: total / seconds, p50: pct(delays, 0.5), p99: pct(delays, 0.99), ok: exact && missing === 0,
        detail: `${expected.length} feed entries per stream, each stream all of them in order, ${missing} outcomes missing; delay = answer to outcome on the stream`,
      },
      {
        name: 'same run: webhook request sent to its outcome on the stream', count: sinceSent.length, seconds, perSecond: sinceSent.length / seconds,
        p50: pct(sinceSent, 0.5), p99: pct(sinceSent, 0.99), ok: missing === 0, detail: 'purchases x streams',
      },
      await notifyRoundTrip(database.url),
    ];
  } finally {
    for (const s of streams) s.close();
    await api.stop();
    await worker.stop();
    await stopTemporal();
    await database.stop();
  }
}

async function feedOf(databaseUrl: string, appId: string): Promise<number[]> {
  const db = createDb(databaseUrl, 1);
  try {
    return (await db('app_event_feed').where('app_id', appId).orderBy('seq').pluck('seq')).map(Number);
  } finally {
    await db.destroy();
  }
}

export function printEventsStreamTable(runs: EventsRun[]): void {
  console.log(`\nDashboard live events stream: ${STREAMS} streams, ${EVENTS} purchases\n`);
  console.log('| path | messages | per second | p50 ms | p99 ms | exact |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of runs) console.log(`| ${r.name} | ${r.count} | ${Math.round(r.perSecond)} | ${r.p50} | ${r.p99} | ${r.ok ? 'yes' : 'NO'} (${r.detail}) |`);
}

if (import.meta.url === `file://${process.argv[1]}`) printEventsStreamTable(await runEventsStreamBench());
