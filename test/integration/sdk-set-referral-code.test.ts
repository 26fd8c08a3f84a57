// POST /api/sdk/set-referral-code, creator-code path: a manual entry is one click + one attributed install in one
// transaction (plus the user's attribution when given), nothing new when this creator already attributed an
// install from the same IP within the app's window; unknown or inactive codes are 404. The free-access path is in
// sdk-free-access.test.ts. Each test uses its own client IPs: ava runs them concurrently.
import test from 'ava';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { createCampaign } from '../../db/campaigns-writes.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { request } from '../helpers/http.js';
import { seedAccount } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
let other: Awaited<ReturnType<typeof seedAccount>>;

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
});

const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)';

function setCode(body: unknown, ip: string, token: string | null = seed.sdk_key) {
  return request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
    token: token ?? undefined,
    body,
    headers: { 'x-forwarded-for': ip, 'user-agent': UA },
  });
}

/** A fresh creator with a code in a campaign of the given status (default: the seeded active campaign). */
async function addCreator(status?: 'paused' | 'draft') {
  const db = h().db;
  const campaignId = status
    ? (
        await createCampaign(db, {
          appId: seed.app_id,
          orgId: seed.org_id,
          name: `Camp ${status}`,
          campaignType: 'public',
          commissionPercentage: 10,
          status,
        })
      ).id
    : seed.campaign_id;
  const code = `CR${randomBytes(4).toString('hex').toUpperCase()}`;
  const creator = await upsertCreator(db, { name: `Creator ${code}` });
  const cc = await addCreatorCode(db, { appId: seed.app_id, campaignId, creatorId: creator.id, code, source: 'seed' });
  return { code, creatorCodeId: cc.id, creatorId: creator.id, campaignId };
}

async function countsFor(creatorCodeId: string) {
  const db = h().db;
  const clicks = await db('clicks').where('creator_code_id', creatorCodeId).select('*');
  const installs = await db('installs').where('creator_code_id', creatorCodeId).select('*');
  return { clicks, installs };
}

test('a new manual entry is one manual click and one attributed install for the creator', async (t) => {
  const cr = await addCreator();
  const res = await setCode({ code: cr.code.toLowerCase() }, '198.51.100.1');
  t.is(res.status, 200);
  t.like(res.body, {
    success: true,
    code: cr.code,
    campaign: { id: seed.campaign_id, name: 'Launch campaign' },
    already_attributed: false,
  });
  t.deepEqual(Object.keys(res.body.campaign).sort(), ['id', 'name']);
  t.is(typeof res.body.message, 'string');

  const { clicks, installs } = await countsFor(cr.creatorCodeId);
  t.is(clicks.length, 1);
  t.is(installs.length, 1);
  t.like(clicks[0], {
    source: 'manual',
    code: cr.code,
    campaign_id: seed.campaign_id,
    ip: '198.51.100.1',
    user_agent: UA,
    claimed_install_id: installs[0].id,
  });
  t.truthy(clicks[0].claimed_at);
  t.like(installs[0], {
    attributed: true,
    attribution_method: 'manual_code',
    click_id: clicks[0].id,
    campaign_id: seed.campaign_id,
    referral_code: cr.code,
    ip: '198.51.100.1',
  });
  t.truthy(installs[0].attributed_at);
});

test('with app_user_id the user is attributed to the creator (method manual_code)', async (t) => {
  const cr = await addCreator();
  const res = await setCode({ code: cr.code, app_user_id: 'user-attr-1' }, '198.51.100.2');
  t.like(res.body, { success: true, already_attributed: false });
  const { clicks, installs } = await countsFor(cr.creatorCodeId);
  const ua = await h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: 'user-attr-1' }).first();
  t.like(ua, {
    creator_code_id: cr.creatorCodeId,
    creator_id: cr.creatorId,
    campaign_id: seed.campaign_id,
    referral_code: cr.code,
    method: 'manual_code',
    click_id: clicks[0].id,
    install_id: installs[0].id,
  });
});

test('a user already attributed keeps their creator', async (t) => {
  const first = await addCreator();
  const second = await addCreator();
  await setCode({ code: first.code, app_user_id: 'user-keeps' }, '198.51.100.3');
  const res = await setCode({ code: second.code, app_user_id: 'user-keeps' }, '198.51.100.4');
  t.like(res.body, { success: true, already_attributed: false });
  t.is((await countsFor(second.creatorCodeId)).installs.length, 1, 'the entry still counts for the second creator');
  const rows = await h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: 'user-keeps' }).select('*');
  t.is(rows.length, 1);
  t.is(rows[0].creator_code_id, first.creatorCodeId);
});

test('the same creator code from the same IP within the window records nothing new', async (t) => {
  const cr = await addCreator();
  await setCode({ code: cr.code, app_user_id: 'user-repeat-1' }, '198.51.100.5');
  const again = await setCode({ code: cr.code, app_user_id: 'user-repeat-2' }, '198.51.100.5');
  t.is(again.status, 200);
  t.like(again.body, { success: true, code: cr.code, already_attributed: true, campaign: { id: seed.campaign_id } });
  const { clicks, installs } = await countsFor(cr.creatorCodeId);
  t.is(clicks.length, 1);
  t.is(installs.length, 1);
  t.is(await h().db('user_attributions').where({ app_id: seed.app_id, app_user_id: 'user-repeat-2' }).first(), undefined);
  // Another IP is another entry.
  t.like((await setCode({ code: cr.code }, '198.51.100.6')).body, { already_attributed: false });
  t.is((await countsFor(cr.creatorCodeId)).installs.length, 2);
});

test("an install this creator's link attributed from the same IP also counts as already attributed", async (t) => {
  const cr = await addCreator();
  await h().db('installs').insert({
    app_id: seed.app_id,
    ip: '198.51.100.7',
    attributed: true,
    attribution_method: 'link_param',
    creator_code_id: cr.creatorCodeId,
    campaign_id: seed.campaign_id,
    referral_code: cr.code,
    attributed_at: new Date(),
  });
  t.like((await setCode({ code: cr.code }, '198.51.100.7')).body, { success: true, already_attributed: true });
  t.is((await countsFor(cr.creatorCodeId)).clicks.length, 0);
  // Another creator's code from the same IP is not affected.
  const otherCreator = await addCreator();
  t.like((await setCode({ code: otherCreator.code }, '198.51.100.7')).body, { already_attributed: false });
});

test("outside the app's attribution window the same IP records a new entry", async (t) => {
  const db = h().db;
  const app = await seedAccount(db);
  await db('apps').where('id', app.app_id).update({ attribution_window_hours: 2 });
  const creatorCodeId = (await db('creator_codes').where({ app_id: app.app_id, code: app.creator_code }).first('id')).id;
  const first = await setCode({ code: app.creator_code }, '198.51.100.8', app.sdk_key);
  t.like(first.body, { already_attributed: false });
  await db('installs')
    .where('creator_code_id', creatorCodeId)
    .update({ created_at: db.raw("now() - interval '3 hours'") });
  t.like((await setCode({ code: app.creator_code }, '198.51.100.8', app.sdk_key)).body, { already_attributed: false });
  t.is((await countsFor(creatorCodeId)).installs.length, 2);
  t.like((await setCode({ code: app.creator_code }, '198.51.100.8', app.sdk_key)).body, { already_attributed: true });
});

// Serial, and deterministic rather than a hopeful race: the test holds the creator code's row lock, so every request
// stalls at its click insert (the foreign-key check) AFTER its duplicate check. Without serialisation of entries
// from one IP each would pass that check and record its own click and install.
test.serial('concurrent entries of one code from one IP record exactly one click and install', async (t) => {
  const cr = await addCreator();
  const trx = await h().db.transaction();
  let answers: Awaited<ReturnType<typeof setCode>>[];
  try {
    await trx('creator_codes').where('id', cr.creatorCodeId).forUpdate().first();
    // 4 requests: the harness pool has 5 connections and this transaction holds one.
    const pending = Promise.all(Array.from({ length: 4 }, () => setCode({ code: cr.code }, '198.51.100.9')));
    await waitForLockWaiters(trx, 4);
    await trx.commit();
    answers = await pending;
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
  t.true(answers.every((r) => r.status === 200 && r.body.success === true));
  t.is(answers.filter((r) => r.body.already_attributed === false).length, 1);
  const { clicks, installs } = await countsFor(cr.creatorCodeId);
  t.is(clicks.length, 1);
  t.is(installs.length, 1);
});

/** Polls (on the holder's own connection) until `n` backends wait on a lock in the manual-entry path. */
async function waitForLockWaiters(db: Knex, n: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    await db.raw('select pg_stat_clear_snapshot()'); // activity is snapshotted once per transaction otherwise
    const { rows } = await db.raw<{ rows: { n: number }[] }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
       and (query like '%pg_advisory_xact_lock%' or query like 'insert into "clicks"%')`,
    );
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`expected ${n} requests waiting on a lock`);
}

test('an unknown, malformed or inactive code is 404 with detail and records nothing', async (t) => {
  for (const code of ['NOSUCHCODE', 'ab', '']) {
    const res = await setCode({ code }, '198.51.100.10');
    t.is(res.status, 404, code);
    t.is(typeof res.body.detail, 'string');
  }
  for (const status of ['paused', 'draft'] as const) {
    const cr = await addCreator(status);
    t.is((await setCode({ code: cr.code }, '198.51.100.10')).status, 404, status);
    t.is((await countsFor(cr.creatorCodeId)).clicks.length, 0);
  }
});

test('missing or mistyped fields are 422 naming them', async (t) => {
  const missing = await setCode({ app_user_id: 'u' }, '198.51.100.11');
  t.is(missing.status, 422);
  t.deepEqual(
    missing.body.detail.map((p: { loc: string[] }) => p.loc),
    [['body', 'code']],
  );
  const mistyped = await setCode({ code: seed.creator_code, app_user_id: 42 }, '198.51.100.11');
  t.is(mistyped.status, 422);
  t.deepEqual(
    mistyped.body.detail.map((p: { loc: string[] }) => p.loc),
    [['body', 'app_user_id']],
  );
});

test("another app's SDK key cannot apply this app's code; no key is 401", async (t) => {
  const res = await setCode({ code: seed.creator_code }, '198.51.100.12', other.sdk_key);
  t.is(res.status, 404);
  t.is(await h().db('clicks').where({ ip: '198.51.100.12' }).first(), undefined);
  const anonymous = await setCode({ code: seed.creator_code }, '198.51.100.12', null);
  t.is(anonymous.status, 401);
  t.is(typeof anonymous.body.detail, 'string');
});
