// The agent API's bonus awards (list with creator and progress; approve or void only while earned), free-access
// codes (create with the code rules, 409 when taken, usable at once through validate-code), marketing assets (list,
// featured) and the signed dashboard links (top-up, credential upload, asset upload): HMAC-signed, 15 minutes,
// single purpose, single use; tampered, expired, wrong-purpose and reused links are refused; the credential upload
// stores the secret encrypted and never echoes it. Tenancy 404, missing scope 403 naming it, audit rows for writes.
import test from 'ava';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { reviewBonusAward } from '../../actions/bonus-awards.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { loadCredential } from '../../db/store-credentials.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { SecretBox } from '../../lib/secret-box.js';
import { createSignedLink, verifySignedLink } from '../../lib/signed-links.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let seedKeyId: string;
let other: SeededApp & { key: string; keyId: string };

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const tag = () => randomBytes(3).toString('hex').toUpperCase();
const audits = (actorId: string, action: string) => h().db('audit_log').where({ actor_id: actorId, action }).select('*');
const masterKey = () => h().config.SVC_MASTER_KEY!;

async function account(scopes: readonly Scope[] = SCOPES): Promise<SeededApp & { key: string; keyId: string }> {
  const app = await seedApp(h().db);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes });
  return { ...app, key: key.key, keyId: key.id };
}

/** An `earned` award; `paid`: approved and paid by a payout run, as the money path does it (the books check after each test). */
async function insertAward(a: SeededApp, opts: { threshold?: number; progress?: number; status?: 'earned' | 'paid' } = {}) {
  const db = h().db;
  const threshold = opts.threshold ?? Math.floor(Math.random() * 1_000_000) + 1;
  const [rule] = await db('bonus_rules')
    .insert({ campaign_id: a.campaign_id, name: 'Milestone', threshold_conversions: threshold, bonus_micros: 50_000_000 })
    .returning('*');
  const [award] = await db('bonus_awards')
    .insert({
      bonus_rule_id: rule.id,
      campaign_id: a.campaign_id,
      creator_id: a.creator_id,
      org_id: a.org_id,
      amount_micros: 50_000_000,
      threshold_conversions: threshold,
      progress_count: opts.progress ?? threshold,
    })
    .returning('*');
  if (opts.status === 'paid') {
    assertReviewed(await reviewBonusAward({ db }, { id: award.id, decision: 'approve', reviewedBy: 'test' }));
    await connectTestAccount(db, a.creator_id);
    await runPayoutRun({ db }, { orgId: a.org_id, runId: `pay-${award.id}` });
  }
  return award as { id: string };
}

function assertReviewed(outcome: { kind: string }): void {
  if (outcome.kind !== 'reviewed') throw new Error(`approval refused: ${JSON.stringify(outcome)}`);
}

async function insertAsset(a: { app_id: string; org_id: string }, fields: Record<string, unknown> = {}) {
  const [row] = await h()
    .db('assets')
    .insert({ app_id: a.app_id, org_id: a.org_id, type: 'image', url: `https://cdn.example.com/${tag()}.png`, ...fields })
    .returning('*');
  return row as { id: string };
}

test.before(async () => {
  await h.ready();
  seedKeyId = (await agent(seed.agent_key, 'GET', '/whoami')).body.principal.id;
  other = await account();
});

// ---- bonus awards ------------------------------------------------------------------------------------------------

test("GET /bonus-awards lists the granted org's awards with creator and progress; filters by status and campaign", async (t) => {
  const a = await account();
  const earned = await insertAward(a, { threshold: 5, progress: 6 });
  const paid = await insertAward(a, { threshold: 10, status: 'paid' });
  await insertAward(other);
  const all = await agent(a.key, 'GET', '/bonus-awards');
  t.is(all.status, 200, all.text);
  t.deepEqual(all.body.bonus_awards.map((x: { id: string }) => x.id).sort(), [earned.id, paid.id].sort());
  const e = all.body.bonus_awards.find((x: { id: string }) => x.id === earned.id);
  t.like(e, {
    status: 'earned',
    amount_usd: 50,
    campaign_id: a.campaign_id,
    progress: { qualifying_conversions: 6, threshold_conversions: 5, reached: true },
  });
  t.is(e.creator.id, a.creator_id);
  t.is(e.creator.name, 'Test Creator');
  t.true('social_handle' in e.creator);

  const onlyEarned = await agent(a.key, 'GET', '/bonus-awards?status=earned');
  t.deepEqual(
    onlyEarned.body.bonus_awards.map((x: { id: string }) => x.id),
    [earned.id],
  );
  const foreign = await agent(a.key, 'GET', `/bonus-awards?campaign_id=${other.campaign_id}`);
  t.is(foreign.status, 404, "another organization's campaign is not found, as everywhere else");
  t.regex(foreign.body.detail, /Campaign/);
  t.is((await agent(a.key, 'GET', '/bonus-awards?campaign_id=cmp_nope')).status, 404);
  t.is((await agent(a.key, 'GET', `/bonus-awards?campaign_id=${a.campaign_id}`)).body.count, 2);
  t.is((await agent(a.key, 'GET', '/bonus-awards?status=bogus')).status, 422);

  const narrow = await createAgentKey(h().db, { orgId: a.org_id, name: 'narrow', scopes: ['apps:read'] });
  const denied = await agent(narrow.key, 'GET', '/bonus-awards');
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /creators:read/);
});

test(
  'POST /bonus-awards/{id}/review approves or voids an earned award, voids an approved ' +
    'one (reservation released); 409 naming the state once final or paid; tenancy 404; audited',
  async (t) => {
    const a = await account();
    const one = await insertAward(a);
    const two = await insertAward(a);
    const paid = await insertAward(a, { status: 'paid' });

    const approved = await agent(a.key, 'POST', `/bonus-awards/${one.id}/review`, { decision: 'approve', note: 'looks real' });
    t.is(approved.status, 200, approved.text);
    t.like(approved.body, { id: one.id, status: 'approved', reviewed_by: a.keyId, review_note: 'looks real' });
    t.truthy(approved.body.reviewed_at);
    const reserve = await h().db('wallet_ledger').where({ bonus_award_id: one.id }).select('*');
    t.is(reserve.length, 1);
    t.like(reserve[0], { entry_type: 'reserve' });

    const voided = await agent(a.key, 'POST', `/bonus-awards/${two.id}/review`, { decision: 'void' });
    t.like(voided.body, { status: 'voided', reviewed_by: a.keyId });
    t.is((await h().db('wallet_ledger').where({ bonus_award_id: two.id })).length, 0);

    const reapproved = await agent(a.key, 'POST', `/bonus-awards/${one.id}/review`, { decision: 'approve' });
    t.is(reapproved.status, 409, 'approving an approved award (not flagged) changes nothing');
    t.regex(reapproved.body.detail, /'approved'/);
    const reserved = (await agent(a.key, 'GET', '/wallet')).body.reserved_micros as number;
    const voidedAfter = await agent(a.key, 'POST', `/bonus-awards/${one.id}/review`, { decision: 'void', note: 'changed my mind' });
    t.is(voidedAfter.status, 200, voidedAfter.text);
    t.like(voidedAfter.body, { status: 'voided', review_note: 'changed my mind', review_decisions: [] });
    t.is((await agent(a.key, 'GET', '/wallet')).body.reserved_micros, reserved - 50_000_000, 'the reservation is released');
    t.deepEqual(
      (await h().db('wallet_ledger').where({ bonus_award_id: one.id }).orderBy('id').select('entry_type', 'reserved_delta_micros')).map(
        (l) => [l.entry_type, Number(l.reserved_delta_micros)],
      ),
      [
        ['reserve', 50_000_000],
        ['release', -50_000_000],
      ],
    );

    for (const [id, state] of [
      [one.id, 'voided'],
      [two.id, 'voided'],
      [paid.id, 'paid'],
    ] as const) {
      for (const decision of ['approve', 'void']) {
        const again = await agent(a.key, 'POST', `/bonus-awards/${id}/review`, { decision });
        t.is(again.status, 409, `${id} ${decision}`);
        t.true(again.body.detail.includes(`'${state}'`), again.text);
      }
    }
    t.is((await agent(a.key, 'POST', `/bonus-awards/${one.id}/review`, { decision: 'maybe' })).status, 422);

    const foreign = await insertAward(other);
    t.is((await agent(a.key, 'POST', `/bonus-awards/${foreign.id}/review`, { decision: 'approve' })).status, 404);
    t.is((await agent(a.key, 'POST', '/bonus-awards/bna_nope/review', { decision: 'approve' })).status, 404);
    t.like(await h().db('bonus_awards').where({ id: foreign.id }).first(), { status: 'earned' });

    const readOnly = await createAgentKey(h().db, { orgId: a.org_id, name: 'ro', scopes: ['creators:read'] });
    const denied = await agent(readOnly.key, 'POST', `/bonus-awards/${foreign.id}/review`, { decision: 'approve' });
    t.is(denied.status, 403);
    t.regex(denied.body.detail, /creators:write/);

    const rows = await audits(a.keyId, 'svc_review_bonus_award');
    t.is(rows.length, 3);
    t.like(rows[0], { actor_type: 'agent_key', org_id: a.org_id });
  },
);

// ---- free codes --------------------------------------------------------------------------------------------------

test('POST /apps/{id}/free-codes creates a code that validate-code accepts at once; GET lists it with seats', async (t) => {
  const raw = `vip ${tag().toLowerCase()}!`;
  const code = raw.toUpperCase().replace(/[^A-Z0-9_-]/g, '');
  const created = await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, {
    code: raw,
    entitlement: 'pro',
    seat_limit: 3,
    access_duration_years: 1,
    access_duration_days: 10,
    custom_data: { tier: 'gold' },
  });
  t.is(created.status, 201, created.text);
  t.like(created.body, {
    code,
    entitlement: 'pro',
    seat_limit: 3,
    seats_used: 0,
    seats_left: 3,
    blocked: false,
    custom_data: { tier: 'gold' },
    created_by: seedKeyId,
  });

  const validated = await sdkClient(h().baseUrl, seed.sdk_key).post('/validate-code', { code });
  t.is(validated.status, 200);
  t.like(validated.body, { valid: true, code, custom_data: { tier: 'gold' } });

  const listed = await agent(seed.agent_key, 'GET', `/apps/${seed.app_id}/free-codes`);
  t.is(listed.status, 200);
  t.like(
    listed.body.free_codes.find((c: { code: string }) => c.code === code),
    { seats_used: 0, seats_left: 3, access_duration_years: 1 },
  );

  const blocked = await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, {
    code: `BLK${tag()}`,
    blocked: true,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  t.like(blocked.body, { blocked: true, seat_limit: null, seats_left: null, live: false });
  // This file's other tests create free codes with the same key at the same time: count this test's two requests.
  const ours = [created, blocked].map((r) => r.headers.get('x-request-id'));
  t.is((await audits(seedKeyId, 'svc_create_free_code')).filter((a) => ours.includes(a.request_id)).length, 2);
});

test('free code rules: 422 for bad codes and fields, 409 when a creator code or another free code holds it', async (t) => {
  for (const code of ['ab', '!!!', 'A'.repeat(21)]) {
    t.is((await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code })).status, 422, code);
  }
  t.is((await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code: `OK${tag()}`, seat_limit: -1 })).status, 422);
  t.is(
    (await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code: `OK${tag()}`, expires_at: '2001-01-01T00:00:00Z' }))
      .status,
    422,
  );
  const taken = await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code: seed.creator_code.toLowerCase() });
  t.is(taken.status, 409);
  t.regex(taken.body.detail, /taken/);
  const code = `DUP${tag()}`;
  t.is((await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code })).status, 201);
  t.is((await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/free-codes`, { code })).status, 409);
  // The same code is free in another app.
  t.is((await agent(other.key, 'POST', `/apps/${other.app_id}/free-codes`, { code })).status, 201);
});

test('free codes: tenancy 404 and scopes campaigns:read / campaigns:write', async (t) => {
  t.is((await agent(seed.agent_key, 'GET', `/apps/${other.app_id}/free-codes`)).status, 404);
  t.is((await agent(seed.agent_key, 'POST', `/apps/${other.app_id}/free-codes`, { code: `X${tag()}` })).status, 404);
  const ro = await createAgentKey(h().db, { orgId: seed.org_id, name: 'ro', scopes: ['campaigns:read'] });
  t.is((await agent(ro.key, 'GET', `/apps/${seed.app_id}/free-codes`)).status, 200);
  const denied = await agent(ro.key, 'POST', `/apps/${seed.app_id}/free-codes`, { code: `X${tag()}` });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /campaigns:write/);
  const none = await createAgentKey(h().db, { orgId: seed.org_id, name: 'none', scopes: ['apps:read'] });
  t.regex((await agent(none.key, 'GET', `/apps/${seed.app_id}/free-codes`)).body.detail, /campaigns:read/);
});

// ---- assets ------------------------------------------------------------------------------------------------------

test('GET /apps/{id}/assets filters by type and category; POST /assets/{id}/featured toggles; tenancy and scopes', async (t) => {
  const a = await account();
  const logo = await insertAsset(a, { type: 'image', category: 'logo', title: 'Logo' });
  const shot = await insertAsset(a, { type: 'image', category: 'screenshot' });
  const video = await insertAsset(a, { type: 'video', category: 'screenshot' });
  const foreign = await insertAsset(other);

  const all = await agent(a.key, 'GET', `/apps/${a.app_id}/assets`);
  t.is(all.status, 200, all.text);
  t.deepEqual(all.body.assets.map((x: { id: string }) => x.id).sort(), [logo.id, shot.id, video.id].sort());
  t.deepEqual(
    (await agent(a.key, 'GET', `/apps/${a.app_id}/assets?type=video`)).body.assets.map((x: { id: string }) => x.id),
    [video.id],
  );
  t.deepEqual(
    (await agent(a.key, 'GET', `/apps/${a.app_id}/assets?type=image&category=logo`)).body.assets.map((x: { id: string }) => x.id),
    [logo.id],
  );

  const featured = await agent(a.key, 'POST', `/assets/${shot.id}/featured`, { featured: true });
  t.is(featured.status, 200, featured.text);
  t.like(featured.body, { id: shot.id, featured: true });
  t.is((await agent(a.key, 'GET', `/apps/${a.app_id}/assets`)).body.assets[0].id, shot.id);
  t.like((await agent(a.key, 'POST', `/assets/${shot.id}/featured`, { featured: false })).body, { featured: false });
  t.is((await agent(a.key, 'POST', `/assets/${shot.id}/featured`, {})).status, 422);
  t.is((await audits(a.keyId, 'svc_set_asset_featured')).length, 2);

  t.is((await agent(a.key, 'GET', `/apps/${other.app_id}/assets`)).status, 404);
  t.is((await agent(a.key, 'POST', `/assets/${foreign.id}/featured`, { featured: true })).status, 404);
  t.like(await h().db('assets').where({ id: foreign.id }).first(), { featured: false });

  const ro = await createAgentKey(h().db, { orgId: a.org_id, name: 'ro', scopes: ['assets:read'] });
  const denied = await agent(ro.key, 'POST', `/assets/${shot.id}/featured`, { featured: true });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /assets:write/);
  const none = await createAgentKey(h().db, { orgId: a.org_id, name: 'none', scopes: ['apps:read'] });
  t.regex((await agent(none.key, 'GET', `/apps/${a.app_id}/assets`)).body.detail, /assets:read/);
});

// ---- signed links ------------------------------------------------------------------------------------------------

const open = (url: string, method = 'GET', body?: unknown) =>
  request(h().baseUrl, method, url.slice(h().baseUrl.length), { body, headers: { accept: 'text/html' } });

function iosCredential(more: Record<string, unknown> = {}) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    platform: 'ios',
    key_id: 'ABCDE12345',
    issuer_id: '57246542-96fe-1a63-e053-0824d011072a',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    bundle_id: 'com.example.app',
    environment: 'sandbox',
    ...more,
  };
}

test('the three link endpoints answer a signed 15-minute dashboard URL with no secret and no money; scopes and tenancy', async (t) => {
  const before = Date.now();
  const topup = await agent(seed.agent_key, 'POST', '/wallet/topup-link', { amount_usd: 250 });
  t.is(topup.status, 200, topup.text);
  t.is(topup.body.purpose, 'wallet-topup');
  t.true(topup.body.url.startsWith(`${h().baseUrl}/dashboard/links/wallet-topup?`));
  const exp = Date.parse(topup.body.expires_at);
  t.true(exp >= before + 14 * 60_000 && exp <= Date.now() + 15 * 60_000 + 1000);
  t.deepEqual(Object.keys(topup.body).sort(), ['expires_at', 'expires_in_seconds', 'note', 'purpose', 'single_use', 'url']);
  const params = new URL(topup.body.url).searchParams;
  t.is(params.get('org'), seed.org_id);
  t.regex(params.get('sig')!, /^[0-9a-f]{64}$/);
  t.false(topup.text.includes(masterKey()));

  const cred = await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/credential-setup-link`, { platform: 'ios' });
  t.like(cred.body, { purpose: 'credential-upload' });
  t.is(new URL(cred.body.url).searchParams.get('app'), seed.app_id);
  t.is((await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/credential-setup-link`, { platform: 'windows' })).status, 422);
  const asset = await agent(seed.agent_key, 'POST', `/apps/${seed.app_id}/asset-upload-link`);
  t.like(asset.body, { purpose: 'asset-upload' });
  t.true((await audits(seedKeyId, 'svc_get_wallet_topup_link')).length >= 1);

  t.is((await agent(seed.agent_key, 'POST', `/apps/${other.app_id}/credential-setup-link`, { platform: 'ios' })).status, 404);
  t.is((await agent(seed.agent_key, 'POST', `/apps/${other.app_id}/asset-upload-link`)).status, 404);
  t.is((await agent(seed.agent_key, 'POST', '/wallet/topup-link', { org_id: other.org_id })).status, 404);
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'narrow', scopes: ['apps:read'] });
  for (const [path, scope, body] of [
    ['/wallet/topup-link', 'billing:read', {}],
    [`/apps/${seed.app_id}/credential-setup-link`, 'apps:write', { platform: 'ios' }],
    [`/apps/${seed.app_id}/asset-upload-link`, 'assets:write', undefined],
  ] as const) {
    const denied = await agent(narrow.key, 'POST', path, body);
    t.is(denied.status, 403, path);
    t.regex(denied.body.detail, new RegExp(scope));
  }
});

test('a valid link opens a page for the human; tampered, expired and wrong-purpose links get a refusal page', async (t) => {
  const { body } = await agent(seed.agent_key, 'POST', '/wallet/topup-link', { amount_usd: 100 });
  const ok = await open(body.url);
  t.is(ok.status, 200);
  t.regex(ok.headers.get('content-type')!, /text\/html/);
  t.regex(ok.text, /Top up your wallet/);

  const url = new URL(body.url);
  const sig = url.searchParams.get('sig')!;
  const flipped = new URL(url);
  flipped.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
  const tampered = await open(flipped.toString());
  t.is(tampered.status, 401);
  t.regex(tampered.text, /invalid: it was altered/);

  const otherOrg = new URL(url);
  otherOrg.searchParams.set('org', other.org_id);
  t.is((await open(otherOrg.toString())).status, 401);
  const bigger = new URL(url);
  bigger.searchParams.set('amount_usd', '1000000');
  t.is((await open(bigger.toString())).status, 401);
  const noSig = new URL(url);
  noSig.searchParams.delete('sig');
  t.is((await open(noSig.toString())).status, 401);

  const wrong = await open(body.url.replace('/links/wallet-topup?', '/links/credential-upload?'));
  t.is(wrong.status, 401);
  t.regex(wrong.text, /different page/);
  t.is((await open(body.url.replace('/links/wallet-topup?', '/links/nonsense?'))).status, 401);

  const expired = createSignedLink({
    masterKey: masterKey(),
    dashboardUrl: h().config.DASHBOARD_URL,
    purpose: 'wallet-topup',
    org: seed.org_id,
    now: new Date(Date.now() - 16 * 60_000),
  });
  const gone = await open(expired.url);
  t.is(gone.status, 410);
  t.regex(gone.text, /expired/);

  // Another key signs nothing here.
  const forged = createSignedLink({
    masterKey: randomBytes(32).toString('base64'),
    dashboardUrl: h().config.DASHBOARD_URL,
    purpose: 'wallet-topup',
    org: seed.org_id,
  });
  t.is((await open(forged.url)).status, 401);
  t.false(verifySignedLink(masterKey(), 'wallet-topup', Object.fromEntries(new URL(forged.url).searchParams)).ok);
});

test('POST to the credential-upload link stores the credential encrypted, never echoes it, and works once', async (t) => {
  const a = await account();
  const link = (await agent(a.key, 'POST', `/apps/${a.app_id}/credential-setup-link`, { platform: 'ios' })).body.url as string;
  const cred = iosCredential();

  const badFields = await open(link, 'POST', { ...cred, key_id: 'short', private_key: 'not a key' });
  t.is(badFields.status, 422);
  t.false(badFields.text.includes('not a key'));
  t.is((await open(link, 'POST', { platform: 'android', package_name: 'com.example.app', service_account_json: {} })).status, 422);
  const page = await open(link);
  t.is(page.status, 200, 'bad fields do not spend the link');
  t.regex(page.text, /Upload store credentials/);

  const stored = await open(link, 'POST', cred);
  t.is(stored.status, 200, stored.text);
  t.like(stored.body, { stored: true, platform: 'ios' });
  t.false(stored.text.includes('PRIVATE KEY'));
  const row = await h().db('store_credentials').where({ app_id: a.app_id, platform: 'ios' }).first();
  t.like(row, { key_id: 'ABCDE12345', bundle_id: 'com.example.app', environment: 'SANDBOX', check_status: 'unchecked' });
  t.false(Buffer.from(row.ciphertext).toString('utf8').includes('PRIVATE KEY'));
  t.is(await loadCredential(h().db, new SecretBox(masterKey()), a.app_id, 'ios'), cred.private_key.trim());

  const reused = await open(link, 'POST', iosCredential());
  t.is(reused.status, 410);
  const reopened = await open(link);
  t.is(reopened.status, 410);
  t.regex(reopened.text, /already been used/);
  t.is(await loadCredential(h().db, new SecretBox(masterKey()), a.app_id, 'ios'), cred.private_key.trim());

  const expired = createSignedLink({
    masterKey: masterKey(),
    dashboardUrl: h().config.DASHBOARD_URL,
    purpose: 'credential-upload',
    org: a.org_id,
    app: a.app_id,
    now: new Date(Date.now() - 20 * 60_000),
  });
  t.is((await open(expired.url, 'POST', iosCredential())).status, 410);
  const url = new URL((await agent(a.key, 'POST', `/apps/${a.app_id}/credential-setup-link`, { platform: 'android' })).body.url);
  url.searchParams.set('app', other.app_id);
  t.is((await open(url.toString(), 'POST', { platform: 'android', package_name: 'com.x.y', service_account_json: '{}' })).status, 401);
  const topup = (await agent(a.key, 'POST', '/wallet/topup-link', {})).body.url as string;
  t.is((await open(topup.replace('/links/wallet-topup?', '/links/credential-upload?'), 'POST', iosCredential())).status, 401);
});

test('Android credential upload takes the service account JSON as an object or a string', async (t) => {
  const a = await account();
  const account_json = {
    type: 'service_account',
    client_email: 'svc@proj.iam.gserviceaccount.com',
    private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
  };
  const mk = async () =>
    (await agent(a.key, 'POST', `/apps/${a.app_id}/credential-setup-link`, { platform: 'android' })).body.url as string;
  const iosOnAndroidLink = await open(await mk(), 'POST', iosCredential());
  t.is(iosOnAndroidLink.status, 422);
  const asString = await open(await mk(), 'POST', {
    platform: 'android',
    package_name: 'com.example.app',
    service_account_json: JSON.stringify(account_json),
  });
  t.is(asString.status, 200, asString.text);
  t.false(asString.text.includes('BEGIN PRIVATE KEY'));
  const asObject = await open(await mk(), 'POST', {
    platform: 'android',
    package_name: 'com.example.app',
    service_account_json: account_json,
  });
  t.is(asObject.status, 200);
  t.like(await h().db('store_credentials').where({ app_id: a.app_id, platform: 'android' }).first(), { package_name: 'com.example.app' });
  t.deepEqual(JSON.parse((await loadCredential(h().db, new SecretBox(masterKey()), a.app_id, 'android'))!), account_json);
});
