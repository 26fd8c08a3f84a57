// `npm run bench:sdk`: the hottest client endpoints under load on loopback, next to a bare Koa endpoint measured
// in the same run. Prints requests/s, p50, p99 and the ratio to the baseline; the client writes (track-install,
// event) also as a ratio to the write floor (bench/write-floor.ts: bare Koa plus one PostgreSQL insert per request,
// the API's pool settings). BENCH_SECONDS, BENCH_CONNECTIONS.
import autocannon, { type Options, type Result } from 'autocannon';
import { randomUUID } from 'node:crypto';
import { seedDemoAccount } from '../actions/seed.js';
import { createDb } from '../runtime/db.js';
import { benchDatabase, startServer } from './infra.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** A row the write floor prices: the floor itself and the client writes. */
  write?: boolean;
}

const POOL_MAX = '20';
const FLOOR = 'write floor: bare Koa POST + one PostgreSQL insert';

async function load(name: string, opts: Omit<Options, 'connections' | 'duration'>): Promise<Row> {
  await autocannon({ ...opts, connections: 4, duration: 1 }); // warm-up: JIT, pools, caches
  const r: Result = await autocannon({ ...opts, connections, duration: seconds });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

const write = async (name: string, opts: Omit<Options, 'connections' | 'duration'>): Promise<Row> => ({
  ...(await load(name, opts)),
  write: true,
});

/** The body of a new event each request (a new event id): the event endpoint and the write floor insert alike. */
const newEvent: Options['requests'] = [
  {
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ event_type: 'paywall_viewed', app_user_id: 'bench-user', event_id: randomUUID() }),
    }),
  },
];

export async function runSdkBench(): Promise<Row[]> {
  const database = await benchDatabase('svc_bench_sdk');
  const db = createDb(database.url, 2);
  const seed = await seedDemoAccount({ db }, { baseUrl: 'http://bench', dashboardUrl: 'http://bench/dashboard' });
  await db.destroy();
  const api = await startServer('bin/svc.js', ['api'], {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: '127.0.0.1:1',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: POOL_MAX,
  });
  const bare = await startServer('bench/bare-koa.ts', [], {}, '/');
  const floor = await startServer('bench/write-floor.ts', [], { DATABASE_URL: database.url, DATABASE_POOL_MAX: POOL_MAX }, '/');
  const auth = { authorization: `Bearer ${seed.sdk_key}`, 'content-type': 'application/json' };
  const rows: Row[] = [];
  try {
    rows.push(await load('bare Koa GET (baseline)', { url: `${bare.url}/`, method: 'GET' }));
    rows.push(
      await load('bare Koa POST, JSON body read', {
        url: `${bare.url}/`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios' }),
      }),
    );
    rows.push(
      await write(FLOOR, {
        url: `${floor.url}/`,
        method: 'POST',
        headers: auth,
        requests: newEvent,
      }),
    );
    rows.push(
      await load('POST /sdk/init', {
        url: `${api.url}/api/sdk/init`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ app_version: '1.0.0', sdk_version: '1.6.1', platform: 'ios' }),
      }),
    );
    rows.push(
      await load('POST /sdk/validate-code', {
        url: `${api.url}/api/sdk/validate-code`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ code: seed.creator_code }),
      }),
    );
    rows.push(
      await write('POST /sdk/track-install', {
        url: `${api.url}/api/sdk/track-install`,
        method: 'POST',
        headers: auth,
        requests: [
          { setupRequest: (req) => ({ ...req, body: JSON.stringify({ platform: 'android', device_id: randomUUID(), os_version: '14' }) }) },
        ],
      }),
    );
    rows.push(
      await write('POST /sdk/event', {
        url: `${api.url}/api/sdk/event`,
        method: 'POST',
        headers: auth,
        requests: newEvent,
      }),
    );
  } finally {
    await api.stop();
    await bare.stop();
    await floor.stop();
    await database.stop();
  }
  return rows;
}

export function printSdkTable(rows: Row[]): void {
  const base = rows[0]!.rps;
  const floor = rows.find((r) => r.name === FLOOR)!.rps;
  const pct = (rps: number, of: number) => `${Math.round((rps / of) * 100)}%`;
  console.log(`\nSDK endpoints, ${connections} connections, ${seconds} s each, loopback; ratio to the bare Koa GET and, for writes,`);
  console.log(`to the write floor (pool max ${POOL_MAX} as svc api)\n`);
  console.log('| endpoint | req/s | p50 ms | p99 ms | vs bare Koa | vs write floor | errors | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const vsFloor = r.write ? pct(r.rps, floor) : '-';
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${pct(r.rps, base)} | ${vsFloor} | ${r.errors} | ${r.non2xx} |`,
    );
  }
  const writes = rows.filter((r) => r.write && r.name !== FLOOR);
  console.log(`\nclient writes / write floor (req/s): ${writes.map((r) => `${r.name} ${(r.rps / floor).toFixed(2)}`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printSdkTable(await runSdkBench());
}
