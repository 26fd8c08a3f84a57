// Free-access (comp) codes end to end: redeeming through POST /api/sdk/set-referral-code (seats, re-grants, expiry,
// failures as 200 success:false) and the premium gate GET /api/sdk/access, re-evaluated at every call. Every test
// makes its own codes and users: ava runs them concurrently.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { request } from '../helpers/http.js';
import { seedAccount } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
let other: Awaited<ReturnType<typeof seedAccount>>;

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
});

const DAY = 86_400_000;
const NO_ACCESS = { has_access: false, source: null, entitlement: null, expires_at: null, code: null };
const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

function redeem(body: unknown, token = seed.sdk_key) {
  return request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
    token,
    body,
    headers: { 'x-forwarded-for': '192.0.2.50', 'user-agent': 'TestSDK/1.0' },
  });
}

function access(appUserId: string | null, token = seed.sdk_key) {
  const query = appUserId === null ? '' : `?app_user_id=${encodeURIComponent(appUserId)}`;
  return request(h().baseUrl, 'GET', `/api/sdk/access${query}`, { token });
}

async function insertFreeCode(fields: Record<string, unknown> = {}, appId = seed.app_id) {
  const [row] = await h()
    .db('free_access_codes')
    .insert({ app_id: appId, code: unique('FREE'), ...fields })
    .returning('*');
  return row;
}

const freeCode = (id: string) => h().db('free_access_codes').where('id', id).first();
const grantsOf = (id: string) => h().db('free_access_grants').where('free_code_id', id).orderBy('granted_at').select('*');
const redemptionsOf = (grantId: string) => h().db('free_access_redemptions').where('grant_id', grantId).orderBy('created_at').select('*');

/** Within a minute: the server's clock and ours agree closely enough. */
function near(t: { true: (v: boolean, m?: string) => void }, iso: string, expected: number) {
  t.true(Math.abs(Date.parse(iso) - expected) < 60_000, `${iso} vs ${new Date(expected).toISOString()}`);
}

// ---- redeeming ------------------------------------------------------------------------------------------

test('redeeming grants access with the code durations and expiry, takes a seat and logs the redemption', async (t) => {
  const fc = await insertFreeCode({ entitlement: 'pro', access_duration_years: 1, access_duration_days: 30, seat_limit: 3 });
  const user = unique('u-');
  const res = await redeem({ code: fc.code.toLowerCase(), app_user_id: user });
  t.is(res.status, 200);
  t.like(res.body, {
    success: true,
    code: fc.code,
    free_access: true,
    grants_access: true,
    already_granted: false,
    entitlement: 'pro',
    access_duration_years: 1,
    access_duration_days: 30,
  });
  t.deepEqual(res.body.rc_grant, { attempted: false, ok: false, error: null });
  t.is(typeof res.body.message, 'string');
  const expected = new Date();
  expected.setUTCFullYear(expected.getUTCFullYear() + 1);
  near(t, res.body.expires_at, expected.getTime() + 30 * DAY);

  t.is((await freeCode(fc.id)).seats_used, 1);
  const [grant] = await grantsOf(fc.id);
  t.like(grant, { app_id: seed.app_id, app_user_id: user, redemption_count: 1 });
  t.is(grant.access_expires_at.toISOString(), res.body.expires_at);
  const [log] = await redemptionsOf(grant.id);
  t.like(log, { app_id: seed.app_id, app_user_id: user, ip: '192.0.2.50', user_agent: 'TestSDK/1.0', already_granted: false });
});

test('an open-ended code answers no expires_at at all', async (t) => {
  const fc = await insertFreeCode();
  const res = await redeem({ code: fc.code, app_user_id: unique('u-') });
  t.like(res.body, { success: true, grants_access: true, access_duration_years: null, access_duration_days: null });
  t.false('expires_at' in res.body);
  t.is((await grantsOf(fc.id))[0].access_expires_at, null);
});

test("the grant's expiry is capped by the code's own earlier expiry", async (t) => {
  const codeExpiry = new Date(Date.now() + 10 * DAY);
  const fc = await insertFreeCode({ access_duration_years: 1, expires_at: codeExpiry });
  const res = await redeem({ code: fc.code, app_user_id: unique('u-') });
  t.is(res.body.expires_at, codeExpiry.toISOString());
  const days = await insertFreeCode({ access_duration_days: 7, expires_at: codeExpiry });
  near(t, (await redeem({ code: days.code, app_user_id: unique('u-') })).body.expires_at, Date.now() + 7 * DAY);
});

test('the same user redeeming again re-grants without another seat, counted from the first grant', async (t) => {
  const fc = await insertFreeCode({ access_duration_days: 30, seat_limit: 1 });
  const user = unique('u-');
  const first = await redeem({ code: fc.code, app_user_id: user });
  const again = await redeem({ code: fc.code, app_user_id: user });
  t.like(again.body, { success: true, grants_access: true, already_granted: true, expires_at: first.body.expires_at });
  t.is((await freeCode(fc.id)).seats_used, 1);
  const grants = await grantsOf(fc.id);
  t.is(grants.length, 1);
  t.is(grants[0].redemption_count, 2);
  t.deepEqual(
    (await redemptionsOf(grants[0].id)).map((r) => r.already_granted),
    [false, true],
  );
  // The only seat is taken: another user is refused, the holder still re-grants.
  t.like((await redeem({ code: fc.code, app_user_id: unique('u-') })).body, { success: false, error_code: 'CODE_EXPIRED' });
  t.like((await redeem({ code: fc.code, app_user_id: user })).body, { success: true, already_granted: true });
});

test('without app_user_id a free-access code answers MISSING_USER_ID and records nothing', async (t) => {
  const fc = await insertFreeCode();
  for (const body of [{ code: fc.code }, { code: fc.code, app_user_id: '' }, { code: fc.code, app_user_id: null }]) {
    const res = await redeem(body);
    t.is(res.status, 200);
    t.like(res.body, { success: false, free_access: true, error_code: 'MISSING_USER_ID', code: fc.code });
    t.is(typeof res.body.message, 'string');
  }
  t.is((await grantsOf(fc.id)).length, 0);
  t.is((await freeCode(fc.id)).seats_used, 0);
});

test('an expired, blocked or full code answers CODE_EXPIRED with 200 and grants nothing', async (t) => {
  const cases = {
    expired: { expires_at: new Date(Date.now() - 1000) },
    blocked: { blocked: true },
    full: { seat_limit: 1, seats_used: 1 },
  };
  for (const [label, fields] of Object.entries(cases)) {
    const fc = await insertFreeCode(fields);
    const res = await redeem({ code: fc.code, app_user_id: unique('u-') });
    t.is(res.status, 200, label);
    t.like(res.body, { success: false, free_access: true, error_code: 'CODE_EXPIRED', code: fc.code }, label);
    t.is((await grantsOf(fc.id)).length, 0, label);
  }
});

test('20 parallel redeems of a 5-seat code by 20 users: exactly 5 succeed', async (t) => {
  const fc = await insertFreeCode({ seat_limit: 5 });
  const users = Array.from({ length: 20 }, (_, i) => `race-${i}-${fc.code}`);
  const answers = await Promise.all(users.map((u) => redeem({ code: fc.code, app_user_id: u })));
  t.true(answers.every((r) => r.status === 200));
  const winners = answers.filter((r) => r.body.success === true);
  t.is(winners.length, 5);
  t.true(answers.filter((r) => r.body.success === false).every((r) => r.body.error_code === 'CODE_EXPIRED'));
  t.is((await freeCode(fc.id)).seats_used, 5);
  t.is((await grantsOf(fc.id)).length, 5);
  const withAccess = await Promise.all(users.map(async (u) => (await access(u)).body.has_access as boolean));
  t.is(withAccess.filter(Boolean).length, 5);
});

test("another app's SDK key cannot redeem or check this app's free-access code", async (t) => {
  const fc = await insertFreeCode();
  const user = unique('u-');
  t.is((await redeem({ code: fc.code, app_user_id: user }, other.sdk_key)).status, 404);
  t.like((await redeem({ code: fc.code, app_user_id: user })).body, { success: true });
  t.deepEqual((await access(user, other.sdk_key)).body, NO_ACCESS);
  t.is((await request(h().baseUrl, 'GET', `/api/sdk/access?app_user_id=${user}`)).status, 401);
});

// ---- the access check -----------------------------------------------------------------------------------

test('access: a holder gets source comp, the entitlement, the expiry and the code; others get all nulls', async (t) => {
  const fc = await insertFreeCode({ entitlement: 'premium_plus', access_duration_days: 90 });
  const user = unique('u-');
  t.deepEqual((await access(user)).body, NO_ACCESS);
  const redeemed = await redeem({ code: fc.code, app_user_id: user });
  const res = await access(user);
  t.is(res.status, 200);
  t.deepEqual(res.body, {
    has_access: true,
    source: 'comp',
    entitlement: 'premium_plus',
    expires_at: redeemed.body.expires_at,
    code: fc.code,
  });
  const open = await insertFreeCode();
  const openUser = unique('u-');
  await redeem({ code: open.code, app_user_id: openUser });
  t.like((await access(openUser)).body, { has_access: true, expires_at: null, code: open.code });
});

test('access: missing or empty app_user_id is 400 with detail', async (t) => {
  for (const userId of [null, '', '   ']) {
    const res = await access(userId);
    t.is(res.status, 400, JSON.stringify(userId));
    t.is(typeof res.body.detail, 'string');
  }
});

test('access: blocking the code removes access for all its holders', async (t) => {
  const fc = await insertFreeCode();
  const users = [unique('u-'), unique('u-')];
  for (const u of users) await redeem({ code: fc.code, app_user_id: u });
  for (const u of users) t.true((await access(u)).body.has_access);
  await h().db('free_access_codes').where('id', fc.id).update({ blocked: true, blocked_at: new Date() });
  for (const u of users) t.deepEqual((await access(u)).body, NO_ACCESS);
});

test('access: expiring the code removes access; an earlier code expiry caps the answer', async (t) => {
  const fc = await insertFreeCode({ access_duration_years: 1 });
  const user = unique('u-');
  await redeem({ code: fc.code, app_user_id: user });
  const soon = new Date(Date.now() + 5 * DAY);
  await h().db('free_access_codes').where('id', fc.id).update({ expires_at: soon });
  t.like((await access(user)).body, { has_access: true, expires_at: soon.toISOString() });
  await h()
    .db('free_access_codes')
    .where('id', fc.id)
    .update({ expires_at: new Date(Date.now() - 1000) });
  t.deepEqual((await access(user)).body, NO_ACCESS);
});

test('access: a grant past its own expiry gives no access', async (t) => {
  const fc = await insertFreeCode({ access_duration_days: 30 });
  const user = unique('u-');
  await redeem({ code: fc.code, app_user_id: user });
  await h()
    .db('free_access_grants')
    .where('free_code_id', fc.id)
    .update({ access_expires_at: new Date(Date.now() - 1000) });
  t.deepEqual((await access(user)).body, NO_ACCESS);
});

test('access: lowering the seat limit removes the latest holders, who also cannot re-grant', async (t) => {
  const fc = await insertFreeCode({ seat_limit: 3 });
  const users = [unique('a-'), unique('b-'), unique('c-')];
  for (const u of users) t.like((await redeem({ code: fc.code, app_user_id: u })).body, { success: true });
  // The seats_used <= seat_limit constraint means an operator lowering the limit lowers seats_used with it.
  await h().db('free_access_codes').where('id', fc.id).update({ seat_limit: 2, seats_used: 2 });
  t.true((await access(users[0]!)).body.has_access);
  t.true((await access(users[1]!)).body.has_access);
  t.deepEqual((await access(users[2]!)).body, NO_ACCESS);
  t.like((await redeem({ code: fc.code, app_user_id: users[2] })).body, { success: false, error_code: 'CODE_EXPIRED' });
  t.like((await redeem({ code: fc.code, app_user_id: users[0] })).body, { success: true, already_granted: true });
  await h().db('free_access_codes').where('id', fc.id).update({ seat_limit: 3 });
  t.true((await access(users[2]!)).body.has_access, 'raising the limit again restores the seat');
});

test('access: with several valid grants the longest-lasting one answers', async (t) => {
  const user = unique('u-');
  const short = await insertFreeCode({ entitlement: 'short', access_duration_days: 10 });
  const long = await insertFreeCode({ entitlement: 'long', access_duration_years: 2 });
  await redeem({ code: short.code, app_user_id: user });
  await redeem({ code: long.code, app_user_id: user });
  t.like((await access(user)).body, { has_access: true, entitlement: 'long', code: long.code });
  const open = await insertFreeCode({ entitlement: 'forever' });
  await redeem({ code: open.code, app_user_id: user });
  t.like((await access(user)).body, { has_access: true, entitlement: 'forever', code: open.code, expires_at: null });
  await h().db('free_access_codes').where('id', open.id).update({ blocked: true });
  t.like((await access(user)).body, { has_access: true, entitlement: 'long', code: long.code });
});
