// POST /api/sdk/validate-code: creator codes of active campaigns first, then free-access codes; always 200 once
// the body is valid; tenancy by SDK key.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createCampaign } from '../../db/campaigns-writes.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { request } from '../helpers/http.js';
import { seedAccount } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let other: Awaited<ReturnType<typeof seedAccount>>;

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
});

// token null: no Authorization header at all.
const validate = (body: unknown, token: string | null = seed.sdk_key) =>
  request(h().baseUrl, 'POST', '/api/sdk/validate-code', { token: token ?? undefined, body });

const uniqueCode = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

async function insertFreeCode(appId: string, fields: Record<string, unknown> = {}) {
  const [row] = await h()
    .db('free_access_codes')
    .insert({ app_id: appId, code: uniqueCode('FREE'), ...fields })
    .returning('*');
  return row;
}

/** A creator code whose campaign has the given status. */
async function insertCreatorCode(status: 'active' | 'paused' | 'draft', code = uniqueCode('CR')) {
  const db = h().db;
  const campaign = await createCampaign(db, {
    appId: seed.app_id,
    orgId: seed.org_id,
    name: `Camp ${status}`,
    campaignType: 'public',
    commissionPercentage: 12.5,
    status,
  });
  const creator = await upsertCreator(db, { name: `Creator ${code}`, socialHandle: null, followerCount: null });
  await addCreatorCode(db, { appId: seed.app_id, campaignId: campaign.id, creatorId: creator.id, code, source: 'seed' });
  return { code, campaignId: campaign.id };
}

test('an active creator code answers its campaign and influencer', async (t) => {
  const res = await validate({ code: seed.creator_code });
  t.is(res.status, 200);
  t.like(res.body, { valid: true, code: seed.creator_code, custom_data: null });
  t.deepEqual(res.body.campaign, {
    id: seed.campaign_id,
    name: 'Launch campaign',
    description: '30% of every purchase for 12 months',
    commission_percentage: 30,
    campaign_type: 'public',
  });
  t.is(res.body.influencer.name, 'Demo Creator');
  t.regex(res.body.influencer.social_handle, /^@democreator/);
  t.is(res.body.influencer.follower_count, 12000);
  t.is(typeof res.body.message, 'string');
});

test('the code is cleaned up before matching: lowercase, spaces and foreign characters', async (t) => {
  const messy = ` ${seed.creator_code.toLowerCase().split('').join(' ')} !`;
  const res = await validate({ code: messy });
  t.like(res.body, { valid: true, code: seed.creator_code });
});

test('fewer than 4 or more than 20 characters after cleanup is INVALID_FORMAT', async (t) => {
  for (const code of ['abc', 'a!b@c#', '', 'A'.repeat(21), '!!!!!!']) {
    const res = await validate({ code });
    t.is(res.status, 200, code);
    t.like(res.body, { valid: false, error_code: 'INVALID_FORMAT' }, code);
    t.is(typeof res.body.error, 'string');
  }
  t.like((await validate({ code: 'A'.repeat(20) })).body, { error_code: 'CODE_NOT_FOUND' });
});

test('missing or mistyped code is 422 naming the field; unknown fields are ignored', async (t) => {
  const missing = await validate({ other: 'x' });
  t.is(missing.status, 422);
  t.deepEqual(
    missing.body.detail.map((p: { loc: string[] }) => p.loc),
    [['body', 'code']],
  );
  const mistyped = await validate({ code: 1234 });
  t.is(mistyped.status, 422);
  t.deepEqual(mistyped.body.detail[0].loc, ['body', 'code']);
  const extra = await validate({ code: seed.creator_code, platform: 'ios', whatever: { nested: true } });
  t.like(extra.body, { valid: true });
});

test('an unknown code is CODE_NOT_FOUND', async (t) => {
  const res = await validate({ code: 'NOSUCHCODE' });
  t.is(res.status, 200);
  t.like(res.body, { valid: false, error_code: 'CODE_NOT_FOUND' });
  t.is(typeof res.body.error, 'string');
});

test('a creator code of a paused or draft campaign is CODE_NOT_FOUND', async (t) => {
  for (const status of ['paused', 'draft'] as const) {
    const { code } = await insertCreatorCode(status);
    t.like((await validate({ code })).body, { valid: false, error_code: 'CODE_NOT_FOUND' }, status);
  }
});

test('a free-access code answers the Free Access pseudo-campaign with its custom_data', async (t) => {
  const fc = await insertFreeCode(seed.app_id, { access_duration_years: 1, custom_data: { tier: 'gold', note: 'press' }, seat_limit: 10 });
  const res = await validate({ code: fc.code.toLowerCase() });
  t.is(res.status, 200);
  t.like(res.body, { valid: true, code: fc.code, influencer: null, custom_data: { tier: 'gold', note: 'press' } });
  t.like(res.body.campaign, { id: fc.id, name: 'Free Access', commission_percentage: 0, campaign_type: 'FREE_ACCESS' });
  t.is(res.body.campaign.description, 'Free premium access for 1 year');
  t.is(typeof res.body.message, 'string');
  const plain = await insertFreeCode(seed.app_id);
  t.like((await validate({ code: plain.code })).body, {
    valid: true,
    custom_data: null,
    campaign: { description: 'Free premium access with no end date' },
  });
});

test('an expired, blocked or seat-exhausted free-access code is CODE_EXPIRED', async (t) => {
  const cases = {
    expired: { expires_at: new Date(Date.now() - 60_000) },
    blocked: { blocked: true, blocked_at: new Date() },
    'no seats': { seat_limit: 2, seats_used: 2 },
    'zero seats': { seat_limit: 0 },
  };
  for (const [label, fields] of Object.entries(cases)) {
    const fc = await insertFreeCode(seed.app_id, fields);
    const res = await validate({ code: fc.code });
    t.is(res.status, 200, label);
    t.like(res.body, { valid: false, error_code: 'CODE_EXPIRED' }, label);
  }
  const future = await insertFreeCode(seed.app_id, { expires_at: new Date(Date.now() + 86_400_000), seat_limit: 2, seats_used: 1 });
  t.like((await validate({ code: future.code })).body, { valid: true });
});

test('creator codes take precedence; a paused creator code falls through to a free-access code', async (t) => {
  const active = await insertCreatorCode('active');
  await insertFreeCode(seed.app_id, { code: active.code });
  t.like((await validate({ code: active.code })).body, { valid: true, campaign: { id: active.campaignId, campaign_type: 'public' } });
  const paused = await insertCreatorCode('paused');
  const fc = await insertFreeCode(seed.app_id, { code: paused.code });
  t.like((await validate({ code: paused.code })).body, {
    valid: true,
    campaign: { id: fc.id, campaign_type: 'FREE_ACCESS' },
    influencer: null,
  });
});

test("another app's SDK key cannot see this app's creator or free-access codes", async (t) => {
  const fc = await insertFreeCode(seed.app_id);
  t.like((await validate({ code: seed.creator_code }, other.sdk_key)).body, { valid: false, error_code: 'CODE_NOT_FOUND' });
  t.like((await validate({ code: fc.code }, other.sdk_key)).body, { valid: false, error_code: 'CODE_NOT_FOUND' });
  t.like((await validate({ code: other.creator_code }, other.sdk_key)).body, { valid: true });
});

test('without the SDK key the request is 401', async (t) => {
  const res = await validate({ code: seed.creator_code }, null);
  t.is(res.status, 401);
  t.is(typeof res.body.detail, 'string');
  t.is((await validate({ code: seed.creator_code }, 'it_notakey')).status, 401);
});
