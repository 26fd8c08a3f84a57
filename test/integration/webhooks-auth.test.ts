// POST /api/webhooks/subprovider/{app_id} and the generic POST /api/webhooks/subprovider: who may call, in which
// order the checks run (app 404, Authorization 401, body 400/422), and how rejected calls are counted per app
// (spec "Inbound webhooks"). TEST events are used where the event itself does not matter: they need no workflow.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { generateToken, hashToken, WEBHOOK_SECRET_PREFIX } from '../../lib/credentials.js';
import { request } from '../helpers/http.js';
import { seedApp } from '../helpers/seed.js';
import { providerEvent, sendWebhook } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test);

/** A fresh TEST event (new provider id and timestamp), so every accepted call records its own event. */
const testEvent = () => providerEvent('test', { id: randomUUID(), event_timestamp_ms: Date.now() + Math.floor(Math.random() * 1e9) });

const rejections = async (appId: string) => {
  const rows = await h().db('rejected_webhooks').where('app_id', appId).andWhereRaw('day = current_date').select('reason', 'count');
  return Object.fromEntries(rows.map((r: { reason: string; count: number }) => [r.reason, r.count]));
};

const postRaw = (appId: string | null, rawBody: string, authorization?: string) =>
  request(h().baseUrl, 'POST', appId ? `/api/webhooks/subprovider/${appId}` : '/api/webhooks/subprovider', {
    rawBody,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
  });

const accepted: [string, (secret: string) => string][] = [
  ['Bearer <secret>', (s) => `Bearer ${s}`],
  ['the bare token', (s) => s],
  ['lowercase bearer', (s) => `bearer ${s}`],
  ['uppercase BEARER', (s) => `BEARER ${s}`],
  ['stray whitespace around and inside', (s) => `  Bearer \t  ${s}   `],
  ['stray whitespace around the bare token', (s) => `\t ${s} `],
];

for (const [label, header] of accepted) {
  test(`Authorization accepted: ${label}`, async (t) => {
    const res = await sendWebhook(h().baseUrl, seed.app_id, undefined, testEvent(), header(seed.webhook_secret));
    t.is(res.status, 200, res.text);
    t.deepEqual(Object.keys(res.body).sort(), ['event_id', 'received']);
    t.true(res.body.received);
    t.regex(res.body.event_id, /^pev_/);
  });
}

test('missing or wrong Authorization is 401 saying how to fix it, never echoing what was sent, counted per app and reason', async (t) => {
  const app = await seedApp(h().db);
  const wrong = generateToken(WEBHOOK_SECRET_PREFIX);
  const calls: [string | undefined, string][] = [
    [undefined, 'missing_authorization'],
    ['Bearer ', 'missing_authorization'],
    ['   ', 'missing_authorization'],
    [`Bearer ${wrong}`, 'wrong_secret'],
    [wrong, 'wrong_secret'],
    [`bearer ${seed.webhook_secret}`, 'wrong_secret'], // another app's secret
    ['Bearer not-even-a-secret-format', 'wrong_secret'],
  ];
  for (const [authorization] of calls) {
    const res = await postRaw(app.app_id, JSON.stringify(testEvent()), authorization);
    t.is(res.status, 401, `${authorization ?? '(none)'}: ${res.text}`);
    t.is(res.headers.get('www-authenticate'), 'Bearer');
    t.is(typeof res.body.detail, 'string');
    t.regex(res.body.detail, /Authorization header/);
    t.regex(res.body.detail, /Bearer <webhook secret>/);
    t.regex(res.body.detail, /rc_webhook_/);
    t.false(res.text.includes(wrong), 'the wrong secret is not echoed');
    t.false(res.text.includes(seed.webhook_secret), "another app's secret is not echoed");
    t.false(res.text.includes(app.webhook_secret), 'the real secret is not shown');
    t.false(res.text.includes('not-even-a-secret-format'));
  }
  t.deepEqual(await rejections(app.app_id), { missing_authorization: 3, wrong_secret: 4 });
  t.is(
    await h()
      .db('purchase_events')
      .where('app_id', app.app_id)
      .count<{ count: string }[]>('* as count')
      .then((r) => Number(r[0]!.count)),
    0,
  );

  const ok = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, testEvent());
  t.is(ok.status, 200, ok.text);
  t.deepEqual(await rejections(app.app_id), { missing_authorization: 3, wrong_secret: 4 }, 'accepted calls are not counted');
});

test('an unknown app id is 404, whatever the Authorization, and counts nothing', async (t) => {
  const missing = `app_${randomUUID().replace(/-/g, '')}`;
  for (const auth of [`Bearer ${seed.webhook_secret}`, undefined]) {
    const res = await postRaw(missing, JSON.stringify(testEvent()), auth);
    t.is(res.status, 404, res.text);
    t.is(typeof res.body.detail, 'string');
    t.false(res.text.includes(seed.webhook_secret));
  }
  t.is((await h().db('rejected_webhooks').where('app_id', missing)).length, 0);
  for (const odd of ['%00', 'app_%00x', '%E0%A4%A', encodeURIComponent('app_\u{1F600}'), 'x'.repeat(300)]) {
    const res = await postRaw(odd, JSON.stringify(testEvent()), `Bearer ${seed.webhook_secret}`);
    // A NUL byte anywhere in a URL is refused at the edge (400); any other odd id is simply no app (404).
    t.is(res.status, odd.includes('%00') ? 400 : 404, `${odd}: ${res.text}`);
  }
});

test('a body that is not JSON is 400 once authenticated, and 401 (counted) before that', async (t) => {
  const app = await seedApp(h().db);
  for (const garbage of ['{"event": {"type": "TEST"', 'not json at all', '<xml/>']) {
    const authed = await postRaw(app.app_id, garbage, `Bearer ${app.webhook_secret}`);
    t.is(authed.status, 400, authed.text);
    t.is(authed.body.detail, 'Request body is not valid JSON.');
    const generic = await postRaw(null, garbage, `Bearer ${app.webhook_secret}`);
    t.is(generic.status, 400, generic.text);
    const anonymous = await postRaw(app.app_id, garbage);
    t.is(anonymous.status, 401, anonymous.text);
    t.false(anonymous.text.includes('JSON'), 'an unauthenticated caller learns nothing about parsing');
    const wrong = await postRaw(app.app_id, garbage, 'Bearer rc_webhook_wrong');
    t.is(wrong.status, 401, wrong.text);
  }
  t.deepEqual(await rejections(app.app_id), { missing_authorization: 3, wrong_secret: 3 });
});

test('JSON that is not an event is 422 listing the missing or mistyped field', async (t) => {
  const cases: [unknown, (string | number)[], string][] = [
    [{}, ['body', 'event'], 'missing'],
    [{ api_version: '1.0' }, ['body', 'event'], 'missing'],
    [{ event: {} }, ['body', 'event', 'type'], 'missing'],
    [{ event: { type: 5 } }, ['body', 'event', 'type'], 'type'],
    [{ event: { type: '' } }, ['body', 'event', 'type'], 'minLength'],
    [{ event: 'INITIAL_PURCHASE' }, ['body', 'event'], 'type'],
    [[], ['body'], 'type'],
  ];
  for (const [body, loc, type] of cases) {
    const res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
    t.is(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
    t.true(Array.isArray(res.body.detail), res.text);
    t.true(
      res.body.detail.some((p: { loc: unknown[]; type: string }) => JSON.stringify(p.loc) === JSON.stringify(loc) && p.type === type),
      `${JSON.stringify(body)} lists ${loc.join('.')} (${type}): ${res.text}`,
    );
  }
  const empty = await postRaw(seed.app_id, '', `Bearer ${seed.webhook_secret}`);
  t.is(empty.status, 422, empty.text);
  t.deepEqual(empty.body.detail[0].loc, ['body']);
});

test('the generic URL finds the app from the secret; an unknown or missing secret is 401', async (t) => {
  const app = await seedApp(h().db);
  const res = await sendWebhook(h().baseUrl, null, app.webhook_secret, testEvent());
  t.is(res.status, 200, res.text);
  const row = await h().db('purchase_events').where('id', res.body.event_id).first();
  t.is(row.app_id, app.app_id);
  t.truthy((await h().db('apps').where('id', app.app_id).first()).webhook_connected_at);

  const bare = await sendWebhook(h().baseUrl, null, undefined, testEvent(), `  bearer ${app.webhook_secret} `);
  t.is(bare.status, 200, bare.text);

  const wrong = generateToken(WEBHOOK_SECRET_PREFIX);
  for (const auth of [`Bearer ${wrong}`, undefined, `Bearer ${app.sdk_key}`, `Bearer ${app.purchase_api_key}`]) {
    const rejected = auth
      ? await sendWebhook(h().baseUrl, null, undefined, testEvent(), auth)
      : await sendWebhook(h().baseUrl, null, undefined, testEvent());
    t.is(rejected.status, 401, rejected.text);
    t.regex(rejected.body.detail, /Bearer <webhook secret>/);
    t.false(rejected.text.includes(wrong));
    t.false(rejected.text.includes(app.sdk_key));
    t.false(rejected.text.includes(app.purchase_api_key));
  }
});

test("another app's secret on this app's URL is 401; the other app's key kinds are 401 too", async (t) => {
  const other = await seedApp(h().db, { orgId: seed.org_id });
  for (const token of [other.webhook_secret, seed.sdk_key, other.purchase_api_key, seed.agent_key]) {
    const res = await sendWebhook(h().baseUrl, seed.app_id, token, testEvent());
    t.is(res.status, 401, res.text);
    t.false(res.text.includes(token));
  }
  // The other app's own URL still takes its own secret.
  t.is((await sendWebhook(h().baseUrl, other.app_id, other.webhook_secret, testEvent())).status, 200);
});

test('after the secret is regenerated the old one is 401 and the new one works, on both URLs', async (t) => {
  const app = await seedApp(h().db);
  t.is((await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, testEvent())).status, 200);
  const fresh = generateToken(WEBHOOK_SECRET_PREFIX);
  await h()
    .db('apps')
    .where('id', app.app_id)
    .update({ webhook_secret_hash: hashToken(fresh), webhook_secret_hint: fresh.slice(-4) });

  const old = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, testEvent());
  t.is(old.status, 401, old.text);
  t.is((await sendWebhook(h().baseUrl, null, app.webhook_secret, testEvent())).status, 401);
  t.deepEqual(await rejections(app.app_id), { wrong_secret: 1 });

  const now = await sendWebhook(h().baseUrl, app.app_id, fresh, testEvent());
  t.is(now.status, 200, now.text);
  t.regex(now.body.event_id, /^pev_/);
  const generic = await sendWebhook(h().baseUrl, null, fresh, testEvent());
  t.is(generic.status, 200, generic.text);
  t.is((await h().db('purchase_events').where('id', generic.body.event_id).first()).app_id, app.app_id);
});
