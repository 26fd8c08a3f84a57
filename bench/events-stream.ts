// `npm run bench:events`: the dashboard's live events stream. `svc api` and `svc worker` in their own processes
// (Temporal dev server, PostgreSQL); BENCH_STREAMS (50) signed-in streams of one app stay open while BENCH_CONNECTIONS
// (8) senders post BENCH_EVENTS (200) new production purchases as provider webhooks (each streams twice: on arrival,
// then with its outcome), then BENCH_SDK_EVENTS (1000) SDK events (no workflow: the stream's own cost shows).
// Measured: feed entries delivered per second over all streams, and per event and stream the delay from the
// answer to the message (for a purchase, the one with its outcome; negative: on the stream before the answer came
// back) and from the request to it. Every stream must get every feed entry, in order. In-run baseline: the NOTIFY round trip alone (a
// committed pg_notify to a LISTEN connection, same database), the floor under any LISTEN/NOTIFY delivery.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDb } from '../runtime/db.js';
import { signInDashboard } from '../test/helpers/dashboard.js';
import { openSse, type SseStream } from '../test/helpers/sse.js';
import { subscription } from '../test/helpers/subprovider-events.js';
import { benchDatabase, benchTemporal, startServer } from './infra.js';
import { pct } from './load.js';
import { freshAccount, sendWebhook } from './webhook-mix.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const SENDERS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const SDK_EVENTS = Number(process.env.BENCH_SDK_EVENTS ?? 1000);
const NOTIFY_SAMPLES = 500;

export interface EventsRun {
  name: string;
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  ok: boolean;
  detail: string;
}

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
  return {
    name: 'baseline: NOTIFY round trip alone (commit to LISTEN connection)',
    count: NOTIFY_SAMPLES,
    seconds,
    perSecond: NOTIFY_SAMPLES / seconds,
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    ok: true,
    detail: 'one at a time',
  };
}

/** What a phase sends: one item, resolving with the event id its answer names. */
type Send = (item: number) => Promise<string>;

interface Phase {
  name: string;
  count: number;
  send: Send;
  /** Whether a streamed event is the one a delay is measured to (a purchase's outcome, an SDK event at once). */
  final: (event: { attributed?: boolean; organic?: boolean; failed?: boolean; event_type: string }) => boolean;
}

/**
 * Opens the streams after the feed's current end, runs the senders, waits until every stream has every feed entry,
 * and measures: entries delivered per second over all streams, answer-to-stream and request-to-stream delays.
 */
async function measure(databaseUrl: string, apiUrl: string, appId: string, cookie: string, phase: Phase): Promise<EventsRun[]> {
  const from = (await feedOf(databaseUrl, appId)).at(-1) ?? 0;
  const streams: SseStream[] = [];
  const arrivals: Map<string, number>[] = [];
  const seqs: number[][] = [];
  try {
    for (let i = 0; i < STREAMS; i += 1) {
      const s = await openSse(`${apiUrl}/dashboard/apps/${appId}/events/stream?after=${from}`, { cookie });
      if (s.status !== 200) throw new Error(`stream answered ${s.status}: ${await s.text()}`);
      const mine = new Map<string, number>();
      const delivered: number[] = [];
      let read = 0;
      // SseStream keeps every message; stamp the new ones as they arrive.
      s.onMessage(() => {
        for (; read < s.messages.length; read += 1) {
          const m = JSON.parse(s.messages[read]!.data) as { seq: number; event: { event_id: string; event_type: string } };
          delivered.push(m.seq);
          if (phase.final(m.event)) mine.set(m.event.event_id, performance.now());
        }
      });
      streams.push(s);
      arrivals.push(mine);
      seqs.push(delivered);
    }
    const answered = new Map<string, { sent: number; answered: number }>();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (let item = next++; item < phase.count; item = next++) {
          const sent = performance.now();
          const eventId = await phase.send(item);
          answered.set(eventId, { sent, answered: performance.now() });
        }
      }),
    );
    const deadline = Date.now() + 60_000;
    let expected: number[] = [];
    do {
      await new Promise((r) => setTimeout(r, 250));
      expected = (await feedOf(databaseUrl, appId)).filter((seq) => seq > from);
    } while (Date.now() < deadline && (seqs.some((d) => d.length < expected.length) || arrivals.some((a) => a.size < answered.size)));
    const seconds = (Math.max(...arrivals.flatMap((a) => [...a.values()])) - started) / 1000;

    const sinceAnswer: number[] = [];
    const sinceSent: number[] = [];
    let missing = 0;
    for (const a of arrivals) {
      for (const [eventId, t] of answered) {
        const at = a.get(eventId);
        if (at === undefined) missing += 1;
        else {
          sinceAnswer.push(at - t.answered);
          sinceSent.push(at - t.sent);
        }
      }
    }
    sinceAnswer.sort((a, b) => a - b);
    sinceSent.sort((a, b) => a - b);
    const total = seqs.reduce((n, d) => n + d.length, 0);
    const exact = missing === 0 && seqs.every((d) => d.length === expected.length && d.every((seq, i) => seq === expected[i]));
    const detail = `${expected.length} feed entries per stream, all of them in order on every stream, ${missing} missing`;
    return [
      {
        name: `${phase.name}: delivered to ${STREAMS} streams; delay answer -> on stream`,
        count: total,
        seconds,
        perSecond: total / seconds,
        p50: pct(sinceAnswer, 0.5),
        p99: pct(sinceAnswer, 0.99),
        ok: exact,
        detail,
      },
      {
        name: `${phase.name}: delay request sent -> on stream`,
        count: sinceSent.length,
        seconds,
        perSecond: sinceSent.length / seconds,
        p50: pct(sinceSent, 0.5),
        p99: pct(sinceSent, 0.99),
        ok: exact,
        detail: `${phase.count} events x ${STREAMS} streams`,
      },
    ];
  } finally {
    for (const s of streams) s.close();
  }
}

export async function runEventsStreamBench(): Promise<EventsRun[]> {
  const database = await benchDatabase('svc_bench_events');
  const temporal = await benchTemporal();
  const temporalAddress = temporal.address;
  const stopTemporal = () => temporal.stop();
  const env = {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: '20',
    SVC_MASTER_KEY: randomBytes(32).toString('base64'),
    WORKER_METRICS_PORT: '0',
  };
  const worker = await startServer('bin/svc.js', ['worker'], env, null);
  const api = await startServer('bin/svc.js', ['api'], env);
  try {
    const seed = await freshAccount(database.url);
    const session = await signInDashboard(api.url, seed.user_email, seed.user_password);
    const purchase = () => subscription(`bench-${randomUUID()}`, seed.creator_code)('initial_purchase');
    // Warm-up (workflow bundle, pools) before the streams open: not measured.
    for (let i = 0; i < 8; i += 1) await sendWebhook(api.url, seed, purchase());
    const post = async (path: string, token: string, body: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { event_id: string }).event_id;
    };
    const purchases = await measure(database.url, api.url, seed.app_id, session.cookie, {
      name: `${EVENTS} purchase webhooks (API -> workflow -> PostgreSQL -> NOTIFY -> SSE), outcome message`,
      count: EVENTS,
      send: () => post(`/api/webhooks/subprovider/${seed.app_id}`, seed.webhook_secret, purchase()),
      final: (e) => Boolean(e.attributed || e.organic || e.failed),
    });
    const sdkEvents = await measure(database.url, api.url, seed.app_id, session.cookie, {
      name: `${SDK_EVENTS} SDK events (API -> PostgreSQL -> NOTIFY -> SSE)`,
      count: SDK_EVENTS,
      send: (i) =>
        post('/api/sdk/event', seed.sdk_key, {
          event_type: 'bench_event',
          app_user_id: `bench-${i}`,
          event_id: randomUUID(),
          platform: 'ios',
        }),
      final: () => true,
    });
    return [...purchases, ...sdkEvents, await notifyRoundTrip(database.url)];
  } finally {
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
  console.log(`\nDashboard live events stream: ${STREAMS} open streams of one app, ${SENDERS} senders\n`);
  console.log('| path | messages | per second | p50 ms | p99 ms | exact |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of runs)
    console.log(`| ${r.name} | ${r.count} | ${Math.round(r.perSecond)} | ${r.p50} | ${r.p99} | ${r.ok ? 'yes' : 'NO'} (${r.detail}) |`);
}

if (import.meta.url === `file://${process.argv[1]}`) printEventsStreamTable(await runEventsStreamBench());
