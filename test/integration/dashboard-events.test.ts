// The dashboard's real-time events stream without a browser: the session rule (401 without one, another
// organization's app 404), live delivery of SDK and purchase events with the rows events/recent shows, the
// environment filter, exact resume after Last-Event-ID (the rows after it from the database, then live ones, no gap
// and no repeat), feed numbering in commit order, and a rolled-back write that streams nothing.
import test from 'ava';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { signInDashboard, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { openSse, type SseMessage } from '../helpers/sse.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test, { caches: true });
let other: SeededApp;
let session: DashboardSession;

test.before(async () => {
  await h.ready();
  other = await seedApp(h().db);
  session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
});

const streamUrl = (appId: string, query = '') => `${h().baseUrl}/dashboard/apps/${appId}/events/stream${query}`;
const open = (query = '', headers: Record<string, string> = {}) =>
  openSse(streamUrl(seed.app_id, query), { cookie: session.cookie, ...headers });
const body = (m: SseMessage) =>
  JSON.parse(m.data) as { seq: number; kind: string; event: Record<string, any>; workflow_url: string | null; html: string };
const sdkEvent = (eventType: string) =>
  sdkClient(h().baseUrl, seed.sdk_key).post('/event', {
    event_type: eventType,
    app_user_id: 'u-live',
    event_id: randomUUID(),
    platform: 'ios',
  });
const purchase = async (name: 'initial_purchase' | 'sandbox_initial_purchase', user = `buyer-${randomUUID()}`) => {
  const res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, subscription(user, seed.creator_code)(name));
  if (res.status !== 200) throw new Error(`webhook ${res.status}: ${res.text}`);
  return res.body.event_id as string;
};
const feedAfter = async (seq: number) =>
  (await h().db('app_event_feed').where('app_id', seed.app_id).andWhere('seq', '>', seq).orderBy('seq').pluck('seq')).map(Number);
const latestSeq = async () => Number((await h().db('app_event_feed').where('app_id', seed.app_id).max('seq as max').first())?.max ?? 0);

test.serial("no session is 401, an agent key is 401, another organization's app is 404, the page redirects to sign-in", async (t) => {
  const none = await openSse(streamUrl(seed.app_id));
  t.is(none.status, 401);
  t.is(typeof JSON.parse(await none.text()).detail, 'string');
  const agent = await openSse(streamUrl(seed.app_id), { authorization: `Bearer ${seed.agent_key}` });
  t.is(agent.status, 401);
  const theirs = await openSse(streamUrl(other.app_id), { cookie: session.cookie });
  t.is(theirs.status, 404);
  t.regex(JSON.parse(await theirs.text()).detail, /not found/);
  const page = await request(h().baseUrl, 'GET', `/dashboard/apps/${seed.app_id}/events`, { headers: { accept: 'text/html' } });
  t.true([302, 303].includes(page.status));
  t.regex(page.headers.get('location') ?? '', /\/dashboard\/login/);
  const theirPage = await request(h().baseUrl, 'GET', `/dashboard/apps/${other.app_id}/events`, {
    headers: { cookie: session.cookie, accept: 'text/html' },
  });
  t.is(theirPage.status, 404);
  const badId = await open('', { 'last-event-id': 'abc' });
  t.is(badId.status, 422);
  t.deepEqual(JSON.parse(await badId.text()).detail[0].loc, ['header', 'last-event-id']);
});

test.serial('SDK and purchase events arrive live, as the rows events/recent gives, each id once and increasing', async (t) => {
  const stream = await open();
  t.is(stream.status, 200);
  t.regex(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  await sdkEvent('paywall_viewed');
  const eventId = await purchase('initial_purchase');
  const attributed = await stream.waitUntil((m) => body(m).event.event_id === eventId && body(m).event.attributed === true);
  // Received and applied in one transaction: one feed entry (the row as committed), not one per write.
  t.deepEqual(
    stream.messages.filter((m) => body(m).event.event_id === eventId).map((m) => Number(m.id)),
    (await h().db('app_event_feed').where('event_id', eventId).pluck('seq')).map(Number),
  );
  t.is(stream.messages.filter((m) => body(m).event.event_id === eventId).length, 1);
  const recent = await request(h().baseUrl, 'GET', `/api/agent/apps/${seed.app_id}/events/recent?limit=100`, { token: seed.agent_key });
  t.is(recent.status, 200);
  t.deepEqual(
    body(attributed).event,
    recent.body.webhooks.find((w: { event_id: string }) => w.event_id === eventId),
  );
  t.is(body(attributed).event.referral_code, seed.creator_code);
  t.regex(body(attributed).html, /attributed/);
  const sdkMsg = stream.messages.find((m) => body(m).kind === 'sdk')!;
  t.deepEqual(
    body(sdkMsg).event,
    recent.body.sdk_events.find((e: { event_id: string }) => e.event_id === body(sdkMsg).event.event_id),
  );
  const ids = stream.messages.map((m) => Number(m.id));
  t.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
  );
  t.is(new Set(ids).size, ids.length);
  t.deepEqual(
    ids,
    stream.messages.map((m) => body(m).seq),
  );
  stream.close();
});

test.serial('Last-Event-ID resume: exactly the feed rows after the id from the database, then live ones, no gap, no repeat', async (t) => {
  const first = await open();
  await sdkEvent('before_drop');
  const [seen] = await first.waitFor(1);
  first.close();
  const resumeFrom = Number(seen!.id);
  // Written while no stream is open.
  for (let i = 0; i < 3; i += 1) await sdkEvent(`while_down_${i}`);
  await purchase('sandbox_initial_purchase');
  const expected = await feedAfter(resumeFrom);
  t.true(expected.length >= 4);
  // `?after=` is the page's cursor; the browser's Last-Event-ID wins over it.
  const resumed = await open('?after=0', { 'last-event-id': String(resumeFrom) });
  await resumed.waitFor(expected.length);
  await sdkEvent('after_resume');
  const all = await resumed.waitUntil((m) => body(m).event.event_type === 'after_resume');
  const ids = resumed.messages.map((m) => Number(m.id));
  t.deepEqual(ids.slice(0, expected.length), expected, 'the rows after the id, in order');
  t.is(Number(all.id), Math.max(...ids));
  t.deepEqual(
    ids,
    await feedAfter(resumeFrom).then((rows) => rows.filter((seq) => seq <= Number(all.id))),
    'no gap and no repeat through the switch to live',
  );
  resumed.close();
});

test.serial(
  'the environment filter: PRODUCTION streams production purchases and SDK events, not sandbox purchases; SANDBOX the reverse',
  async (t) => {
    const start = await latestSeq();
    const production = await open(`?environment=PRODUCTION&after=${start}`);
    const sandbox = await open(`?environment=SANDBOX&after=${start}`);
    const prodId = await purchase('initial_purchase');
    const sandId = await purchase('sandbox_initial_purchase');
    await sdkEvent('filter_marker');
    for (const s of [production, sandbox]) await s.waitUntil((m) => body(m).event.event_type === 'filter_marker');
    const purchasesOf = (s: typeof production) =>
      new Set(s.messages.filter((m) => body(m).kind === 'purchase').map((m) => body(m).event.event_id));
    t.deepEqual([...purchasesOf(production)], [prodId]);
    t.deepEqual([...purchasesOf(sandbox)], [sandId]);
    t.true(production.messages.every((m) => body(m).kind === 'sdk' || body(m).event.environment === 'PRODUCTION'));
    t.true(sandbox.messages.every((m) => body(m).kind === 'sdk' || body(m).event.environment !== 'PRODUCTION'));
    const bad = await open('?environment=STAGING');
    t.is(bad.status, 422);
    production.close();
    sandbox.close();
  },
);

test.serial('the page renders the latest rows without JavaScript, with the stream cursor and our own script', async (t) => {
  const eventId = await purchase('initial_purchase');
  const page = await request(h().baseUrl, 'GET', `/dashboard/apps/${seed.app_id}/events`, {
    headers: { cookie: session.cookie, accept: 'text/html' },
  });
  t.is(page.status, 200);
  t.true(page.text.includes(`data-event-id="${eventId}"`));
  t.regex(page.text, new RegExp(`data-cursor="${await latestSeq()}"`));
  const nonce = /<script nonce="([^"]+)" src="\/dashboard\/static\/live-events.js">/.exec(page.text)?.[1];
  t.truthy(nonce);
  t.true((page.headers.get('content-security-policy') ?? '').includes(`'nonce-${nonce}'`));
  const script = await request(h().baseUrl, 'GET', '/dashboard/static/live-events.js');
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /javascript/);
  t.regex(script.text, /new EventSource/);
  const filtered = await request(h().baseUrl, 'GET', `/dashboard/apps/${seed.app_id}/events?environment=SANDBOX`, {
    headers: { cookie: session.cookie, accept: 'text/html' },
  });
  t.false(filtered.text.includes(`data-event-id="${eventId}"`));
});

test.serial('feed numbers follow commit order, and a rolled-back write is neither numbered nor announced', async (t) => {
  const listener = new pg.Client({ connectionString: h().database.url });
  listener.on('error', () => undefined);
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (n) => heard.push(n.payload ?? ''));
  await listener.query('listen svc_app_events');
  const insert = (trx: Knex, eventId: string) =>
    trx('sdk_events').insert({ app_id: seed.app_id, event_id: eventId, event_type: 'order_check', app_user_id: 'u-order' });
  const before = await latestSeq();
  // The first transaction writes first but commits last: it must be numbered last.
  const late = await h().db.transaction();
  await insert(late, 'late');
  await h().db.transaction(async (trx) => {
    await insert(trx, 'early');
  });
  await late.commit();
  const rolled = await h().db.transaction();
  await insert(rolled, 'rolled-back');
  await rolled.rollback();
  const rows = await h().db('app_event_feed').where('app_id', seed.app_id).andWhere('seq', '>', before).orderBy('seq').pluck('event_id');
  t.deepEqual(rows, ['early', 'late']);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(heard.length, 2);
  t.true(heard.every((p) => p.startsWith(`${seed.app_id}:`)));
  await listener.end();
});

test.serial('an event written while the LISTEN connection is down still reaches the open stream once it reconnects', async (t) => {
  const stream = await open(`?after=${await latestSeq()}`);
  await sdkEvent('before_listen_drop');
  await stream.waitFor(1);
  const feed = h().app.context.deps.appChanges!;
  await h().db.raw(
    'select pg_terminate_backend(pid) from pg_stat_activity where ' +
      "application_name = 'svc-app-change-feed' and datname = current_database()",
  );
  for (let i = 0; i < 100 && feed.isLive(); i += 1) await new Promise((r) => setTimeout(r, 10));
  t.false(feed.isLive(), 'the feed noticed the closed connection');
  // Its notification goes nowhere: the reconnect ('*') makes the readers read the feed again.
  await sdkEvent('while_listen_down');
  const got = await stream.waitUntil((m) => body(m).event.event_type === 'while_listen_down');
  const ids = stream.messages.map((m) => Number(m.id));
  t.deepEqual(
    ids,
    (await feedAfter(Number(stream.messages[0]!.id) - 1)).filter((seq) => seq <= Number(got.id)),
  );
  stream.close();
});
