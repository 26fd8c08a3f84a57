// The agent API's resource writes, over HTTP: create organization, check-slug, idempotent provision, webhook-secret
// regeneration, app and campaign patches, campaign creation (draft) and status (escrow rule, 402 naming the
// top-up-link endpoint; paused codes stop attributing), and the wallet read. Every mutating call writes one audit
// row with the agent as actor; ids of another organization are 404; a missing scope is 403 naming it.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { hashToken } from '../../lib/credentials.js';
import { toMicros } from '../../lib/money.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { reserveByApprovedAward } from '../helpers/conversions.js';
import { request } from '../helpers/http.js';
import { sdkClient } from '../helpers/sdk.js';
import { seedAccount, seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { providerEvent, sendWebhook } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test, { worker: false });
const TOPUP = 'POST /api/agent/wallet/topup-link';
let other: Awaited<ReturnType<typeof seedAccount>>;
let seedKeyId: string;

test.before(async () => {
  await h.ready();
  other = await seedAccount(h().db);
  seedKeyId = (await agent(seed.agent_key, 'GET', '/whoami')).body.principal.id;
});

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const tag = () => randomBytes(4).toString('hex');
let clock = Date.now();
/** A provider TEST event of its own: events are deduplicated on type, transaction id and timestamp. */
const testEvent = () => providerEvent('test', { id: `test-${tag()}`, event_timestamp_ms: (clock += 1000) });

/** An organization of its own (app, active campaign with a creator code, wallet) and an agent key for it. */
async function account(opts: { walletUsd?: number; scopes?: readonly Scope[] } = {}): Promise<SeededApp & { key: string; keyId: string }> {
  const app = await seedApp(h().db, { walletUsd: opts.walletUsd });
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: opts.scopes ?? SCOPES });
  return { ...app, key: key.key, keyId: key.id };
}

const audits = (actorId: string, action: string) => h().db('audit_log').where({ actor_id: actorId, action }).select('*');

const provisionInput = (name: string, more: Record<string, unknown> = {}) => ({
  app: { name, support_email: 'dev@example.com', ios_store_url: 'https://apps.apple.com/app/id123' },
  campaign: { name: 'Launch', description: '20% for a year', commission_percentage: 20 },
  ...more,
});

test(
  'POST /organizations: 201 with the new org and a note that ' + "this credential cannot reach it; owned by the key's human; audited",
  async (t) => {
    const res = await agent(seed.agent_key, 'POST', '/organizations', { name: '  Second Brand  ' });
    t.is(res.status, 201, res.text);
    t.like(res.body, { name: 'Second Brand', reachable_by_this_credential: false });
    t.regex(res.body.org_id, /^org_/);
    t.regex(res.body.note, /agent key belongs to one organization/);
    const owner = await h().db('memberships').where({ org_id: res.body.org_id }).first();
    const seedUser = await h().db('users').where({ email: seed.user_email }).first();
    t.like(owner, { user_id: seedUser.id, role: 'owner' });
    const whoami = await agent(seed.agent_key, 'GET', '/whoami');
    t.deepEqual(
      whoami.body.organizations.map((o: { id: string }) => o.id),
      [seed.org_id],
    );
    const rows = await audits(seedKeyId, 'svc_create_org');
    t.is(rows.length, 1);
    t.like(rows[0], { actor_type: 'agent_key', org_id: seed.org_id });

    t.is((await agent(seed.agent_key, 'POST', '/organizations', { name: '   ' })).status, 422);
    t.is((await agent(seed.agent_key, 'POST', '/organizations', {})).status, 422);
    const ownerless = await account();
    const refused = await agent(ownerless.key, 'POST', '/organizations', { name: 'Nobody owns me' });
    t.is(refused.status, 409);
    t.is((await audits(ownerless.keyId, 'svc_create_org')).length, 0);
  },
);

test('GET /apps/check-slug/{slug}: available, taken, reserved, bad format', async (t) => {
  const seedSlug = (await agent(seed.agent_key, 'GET', `/apps/${seed.app_id}`)).body.slug as string;
  const free = `free-${tag()}`;
  t.deepEqual((await agent(seed.agent_key, 'GET', `/apps/check-slug/${free}`)).body, { slug: free, available: true });
  t.like((await agent(seed.agent_key, 'GET', `/apps/check-slug/${seedSlug}`)).body, { slug: seedSlug, available: false, reason: 'taken' });
  for (const reserved of ['api', 'mcp', 'join', 'dashboard', 'wallet']) {
    t.like((await agent(seed.agent_key, 'GET', `/apps/check-slug/${reserved}`)).body, { available: false, reason: 'reserved' }, reserved);
  }
  for (const bad of ['UPPER', 'has%20space', '-dash-first', 'x'.repeat(64), 'emoji%F0%9F%98%80']) {
    const res = await agent(seed.agent_key, 'GET', `/apps/check-slug/${bad}`);
    t.is(res.status, 200);
    t.like(res.body, { available: false, reason: 'invalid_format' }, bad);
  }
  const narrow = await createAgentKey(h().db, { orgId: seed.org_id, name: 'no apps:read', scopes: ['campaigns:read'] });
  const denied = await agent(narrow.key, 'GET', `/apps/check-slug/${free}`);
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /apps:read/);
});

test('POST /provision is idempotent: same org, app and campaign; secrets only on creation; one transaction per call', async (t) => {
  const a = await account();
  const input = provisionInput(`Acme ${tag()}`);
  const first = await agent(a.key, 'POST', '/provision', input);
  t.is(first.status, 201, first.text);
  // activate defaults to true, and this wallet covers the minimum escrow: nothing is left to do about money.
  t.like(first.body, { org_id: a.org_id, created: { org: false, app: true, campaign: true }, campaign_status: 'active' });
  t.false('next_tool' in first.body);
  t.regex(first.body.app_id, /^app_/);
  t.regex(first.body.campaign_id, /^cmp_/);
  t.regex(first.body.sdk_key, /^it_(?!mcp_)/);
  t.regex(first.body.webhook_secret, /^rc_webhook_/);
  t.regex(first.body.purchase_api_key, /^it_srv_/);
  t.is(first.body.webhook_url, `${h().baseUrl}/api/webhooks/subprovider/${first.body.app_id}`);

  const again = await agent(a.key, 'POST', '/provision', input);
  t.is(again.status, 200, again.text);
  t.like(again.body, {
    org_id: a.org_id,
    app_id: first.body.app_id,
    campaign_id: first.body.campaign_id,
    sdk_key: first.body.sdk_key,
    slug: first.body.slug,
    created: { org: false, app: false, campaign: false },
    campaign_status: 'active',
  });
  t.false('webhook_secret' in again.body);
  t.false('purchase_api_key' in again.body);
  t.false(again.text.includes(first.body.webhook_secret));
  t.regex(again.body.notes.join(' '), /regenerate-webhook-secret/);
  t.is((await h().db('apps').where({ org_id: a.org_id, slug: first.body.slug }).select('id')).length, 1);
  t.is((await h().db('campaigns').where({ app_id: first.body.app_id, name: 'Launch' }).select('id')).length, 1);
  const app = await h().db('apps').where('id', first.body.app_id).first();
  t.like(app, {
    support_email: 'dev@example.com',
    ios_store_url: 'https://apps.apple.com/app/id123',
    webhook_secret_hash: hashToken(first.body.webhook_secret),
    purchase_api_key_hash: hashToken(first.body.purchase_api_key),
  });

  // The secret it returned is the app's live webhook secret.
  t.is((await sendWebhook(h().baseUrl, first.body.app_id, first.body.webhook_secret, testEvent())).status, 200);

  // Another campaign name in the same app: the app is reused, the campaign created.
  const second = await agent(
    a.key,
    'POST',
    '/provision',
    provisionInput(input.app.name, { campaign: { name: 'Summer', commission_percentage: 10, campaign_type: 'invite_only' } }),
  );
  t.is(second.status, 201);
  t.like(second.body, { app_id: first.body.app_id, created: { app: false, campaign: true } });
  t.not(second.body.campaign_id, first.body.campaign_id);
  t.is((await h().db('campaigns').where('id', second.body.campaign_id).first()).campaign_type, 'invite_only');
  t.is((await audits(a.keyId, 'svc_provision')).length, 3);
});

test('POST /provision twice at once: one app and one campaign, created by exactly one of the calls', async (t) => {
  const a = await account();
  const input = provisionInput(`Race ${tag()}`, { activate: true });
  const [x, y] = await Promise.all([agent(a.key, 'POST', '/provision', input), agent(a.key, 'POST', '/provision', input)]);
  t.deepEqual([x.status, y.status].sort(), [200, 201], `${x.text} ${y.text}`);
  t.is(x.body.app_id, y.body.app_id);
  t.is(x.body.campaign_id, y.body.campaign_id);
  t.is([x, y].filter((r) => r.body.webhook_secret).length, 1);
  t.is((await h().db('campaigns').where('app_id', x.body.app_id).select('id')).length, 1);
});

test(
  'POST /provision with activate: active when the wallet covers ' + 'the escrow, else 402 naming the top-up link and nothing written',
  async (t) => {
    const funded = await account();
    const input = provisionInput(`Live ${tag()}`, { activate: true });
    const res = await agent(funded.key, 'POST', '/provision', input);
    t.is(res.status, 201, res.text);
    t.is(res.body.campaign_status, 'active');
    t.is((await h().db('campaigns').where('id', res.body.campaign_id).first()).status, 'active');
    const again = await agent(funded.key, 'POST', '/provision', input);
    t.like(again.body, { campaign_id: res.body.campaign_id, campaign_status: 'active', created: { app: false, campaign: false } });

    const broke = await account({ walletUsd: 0 });
    const name = `Broke ${tag()}`;
    const refused = await agent(broke.key, 'POST', '/provision', provisionInput(name, { activate: true }));
    t.is(refused.status, 402, refused.text);
    t.true(refused.body.detail.includes(TOPUP), refused.body.detail);
    t.is((await h().db('apps').where({ org_id: broke.org_id, name }).select('id')).length, 0, 'a refused provision writes nothing');
    t.is((await audits(broke.keyId, 'svc_provision')).length, 0);
    t.is(refused.body.next_tool, 'svc_get_wallet_topup_link');
    t.is(refused.body.call, TOPUP);
  },
);

test(
  'POST /provision with activate left out: a short wallet leaves the campaign in ' +
    'draft and names the top-up tool; false never activates; a paused campaign stays paused',
  async (t) => {
    const broke = await account({ walletUsd: 0 });
    const name = `Short ${tag()}`;
    const draft = await agent(broke.key, 'POST', '/provision', provisionInput(name));
    t.is(draft.status, 201, draft.text);
    t.like(draft.body, {
      campaign_status: 'draft',
      next_tool: 'svc_get_wallet_topup_link',
      call: TOPUP,
      created: { app: true, campaign: true },
    });
    t.regex(draft.body.webhook_secret, /^rc_webhook_/);
    t.regex(draft.body.purchase_api_key, /^it_srv_/);
    t.regex(draft.body.notes.join(' '), /stays in draft\. Activating a campaign needs a wallet safe balance/);
    t.is((await h().db('campaigns').where('id', draft.body.campaign_id).first()).status, 'draft');
    // The human tops up; the same call again activates it.
    await appendLedgerEntry(h().db, {
      orgId: broke.org_id,
      entryType: 'topup',
      balanceDeltaMicros: toMicros(500),
      reservedDeltaMicros: 0,
      idempotencyKey: `topup:test:${tag()}`,
      memo: 'test',
      createdBy: 'test',
    });
    const after = await agent(broke.key, 'POST', '/provision', provisionInput(name));
    t.like(after.body, { campaign_id: draft.body.campaign_id, campaign_status: 'active', created: { app: false, campaign: false } });
    t.false('next_tool' in after.body);

    const funded = await account();
    const offName = `Off ${tag()}`;
    const off = await agent(funded.key, 'POST', '/provision', provisionInput(offName, { activate: false }));
    t.like(off.body, { campaign_status: 'draft' });
    t.false('next_tool' in off.body);
    t.is((await h().db('campaigns').where('id', off.body.campaign_id).first()).status, 'draft');
    t.is((await agent(funded.key, 'POST', `/campaigns/${off.body.campaign_id}/status`, { status: 'active' })).status, 200);
    t.is((await agent(funded.key, 'POST', `/campaigns/${off.body.campaign_id}/status`, { status: 'paused' })).status, 200);
    const replay = await agent(funded.key, 'POST', '/provision', provisionInput(offName));
    t.like(replay.body, { campaign_id: off.body.campaign_id, campaign_status: 'paused' });
    const explicit = await agent(funded.key, 'POST', '/provision', provisionInput(offName, { activate: true }));
    t.like(explicit.body, { campaign_id: off.body.campaign_id, campaign_status: 'active' });
  },
);

test('POST /provision slugs: derived from the name (stable even when another org holds it), given, reserved, taken', async (t) => {
  const a = await account();
  const seedSlug = (await agent(seed.agent_key, 'GET', `/apps/${seed.app_id}`)).body.slug as string;
  // The name's slug belongs to another organization: a stable org-derived suffix keeps provision idempotent.
  const first = await agent(a.key, 'POST', '/provision', provisionInput(seedSlug));
  t.is(first.status, 201, first.text);
  t.not(first.body.slug, seedSlug);
  t.true(first.body.slug.startsWith(`${seedSlug}-`));
  const again = await agent(a.key, 'POST', '/provision', provisionInput(seedSlug));
  t.like(again.body, { app_id: first.body.app_id, created: { app: false } });

  const given = `given-${tag()}`;
  const withSlug = await agent(a.key, 'POST', '/provision', provisionInput('Any name', { app: { name: 'Any name', slug: given } }));
  t.like(withSlug.body, { slug: given, created: { app: true } });
  t.like((await agent(a.key, 'GET', `/apps/check-slug/${given}`)).body, { available: false, reason: 'taken' });

  const taken = await agent(a.key, 'POST', '/provision', provisionInput('Thief', { app: { name: 'Thief', slug: seedSlug } }));
  t.is(taken.status, 409);
  t.regex(taken.body.detail, /another organization/);
  const reserved = await agent(a.key, 'POST', '/provision', provisionInput('Api', { app: { name: 'Api', slug: 'api' } }));
  t.is(reserved.status, 422);
  t.deepEqual(reserved.body.detail[0].loc, ['body', 'app', 'slug']);
  // A reserved word as the name is never used as the derived slug.
  const reservedName = await agent(a.key, 'POST', '/provision', provisionInput('Wallet'));
  t.is(reservedName.status, 201);
  t.regex(reservedName.body.slug, /^wallet-[0-9a-f]{6}$/);

  const unknown = await agent(a.key, 'POST', '/provision', provisionInput('X', { app: { name: 'X', sdk_key: 'it_mine' } }));
  t.is(unknown.status, 422);
  t.deepEqual(unknown.body.detail[0].loc, ['body', 'app', 'sdk_key']);
  const missing = await agent(a.key, 'POST', '/provision', { app: { name: 'X' }, campaign: { name: 'C', commission_percentage: 101 } });
  t.is(missing.status, 422);
  t.deepEqual(missing.body.detail[0].loc, ['body', 'campaign', 'commission_percentage']);
});

test(
  'POST /provision org_name: the granted org by name; with an agent ' +
    'key another name is 422 pointing at svc_create_org and creates nothing',
  async (t) => {
    const a = await account();
    const orgName = (await h().db('organizations').where('id', a.org_id).first()).name as string;
    const named = await agent(a.key, 'POST', '/provision', { ...provisionInput(`Named ${tag()}`), org_name: orgName.toUpperCase() });
    t.is(named.body.org_id, a.org_id);
    t.false('notes' in named.body);
    const elsewhere = await agent(a.key, 'POST', '/provision', { ...provisionInput(`Else ${tag()}`), org_name: 'Some Other Org' });
    t.is(elsewhere.status, 422, elsewhere.text);
    t.deepEqual(elsewhere.body.detail[0].loc, ['body', 'org_name']);
    t.regex(elsewhere.body.detail[0].msg, /Some Other Org.*svc_create_org/);
    t.like(elsewhere.body, { next_tool: 'svc_create_org', call: 'POST /api/agent/organizations' });
    t.is((await h().db('organizations').where('name', 'Some Other Org').select('id')).length, 0);
    t.is((await h().db('apps').where('org_id', a.org_id).where('name', 'like', 'Else %').select('id')).length, 0);
  },
);

test('POST /apps/{app_id}/regenerate-webhook-secret: the new secret once, only its digest stored, the old one dead', async (t) => {
  const a = await account();
  t.is((await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, testEvent())).status, 200);
  const res = await agent(a.key, 'POST', `/apps/${a.app_id}/regenerate-webhook-secret`);
  t.is(res.status, 200, res.text);
  const fresh = res.body.webhook_secret as string;
  t.regex(fresh, /^rc_webhook_/);
  t.not(fresh, a.webhook_secret);
  const row = await h().db('apps').where('id', a.app_id).first();
  t.is(row.webhook_secret_hash, hashToken(fresh));
  t.false(JSON.stringify(row).includes(fresh), 'only the digest is stored');
  t.is(row.webhook_connected_at, null, 'connected again only once the provider uses the new secret');

  const old = await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, testEvent());
  t.is(old.status, 401, old.text);
  const now = await sendWebhook(h().baseUrl, a.app_id, fresh, testEvent());
  t.is(now.status, 200, now.text);
  t.not((await h().db('apps').where('id', a.app_id).first()).webhook_connected_at, null);

  const app = await agent(a.key, 'GET', `/apps/${a.app_id}`);
  t.false(app.text.includes(fresh));
  const rows = await audits(a.keyId, 'svc_regenerate_webhook_secret');
  t.is(rows.length, 1);
  t.like(rows[0], { actor_type: 'agent_key', org_id: a.org_id, target_id: a.app_id });
  t.false(JSON.stringify(rows[0]).includes(fresh));
});

test('PATCH /apps/{app_id}: descriptive settings only, 422 on bad or credential fields', async (t) => {
  const a = await account();
  const res = await agent(a.key, 'PATCH', `/apps/${a.app_id}`, {
    name: 'Renamed',
    tagline: 'Earn with us',
    description: null,
    support_email: 'help@example.com',
    web_url: 'https://example.com/app',
    attribution_window_hours: 168,
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, {
    app_id: a.app_id,
    name: 'Renamed',
    tagline: 'Earn with us',
    description: null,
    support_email: 'help@example.com',
    attribution_window_hours: 168,
  });
  t.like(await sdkClient(h().baseUrl, a.sdk_key).post('/init', { app_version: '1', sdk_version: '1.6.1', platform: 'ios' }), {
    body: { app_name: 'Renamed', attribution_window_hours: 168 },
  });

  const before = await h().db('apps').where('id', a.app_id).first();
  const bad: [Record<string, unknown>, (string | number)[]][] = [
    [{ attribution_window_hours: 0 }, ['body', 'attribution_window_hours']],
    [{ attribution_window_hours: 8761 }, ['body', 'attribution_window_hours']],
    [{ attribution_window_hours: 1.5 }, ['body', 'attribution_window_hours']],
    [{ name: '' }, ['body', 'name']],
    [{ support_email: 'not-an-email' }, ['body', 'support_email']],
    [{ ios_store_url: 'not a url' }, ['body', 'ios_store_url']],
    [{ sdk_key: 'it_x' }, ['body', 'sdk_key']],
    [{ webhook_secret: 'rc_webhook_x' }, ['body', 'webhook_secret']],
    [{ slug: 'new-slug' }, ['body', 'slug']],
    [{}, ['body']],
  ];
  for (const [body, loc] of bad) {
    const r = await agent(a.key, 'PATCH', `/apps/${a.app_id}`, body);
    t.is(r.status, 422, JSON.stringify(body));
    t.deepEqual(r.body.detail[0].loc, loc, JSON.stringify(body));
  }
  const after = await h().db('apps').where('id', a.app_id).first();
  t.like(after, {
    sdk_key: before.sdk_key,
    webhook_secret_hash: before.webhook_secret_hash,
    slug: before.slug,
    attribution_window_hours: 168,
  });
  t.is((await audits(a.keyId, 'svc_update_app')).length, 1, 'refused calls are not audited');
  t.is((await agent(a.key, 'PATCH', `/apps/${a.app_id}`, { attribution_window_hours: 1 })).status, 200);
  t.is((await agent(a.key, 'PATCH', `/apps/${a.app_id}`, { attribution_window_hours: 8760 })).status, 200);
});

test('PATCH /campaigns/{campaign_id}: name, description, commission 0..100; never status', async (t) => {
  const a = await account();
  const res = await agent(a.key, 'PATCH', `/campaigns/${a.campaign_id}`, {
    name: 'Autumn',
    description: 'More',
    commission_percentage: 12.5,
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, { id: a.campaign_id, name: 'Autumn', description: 'More', commission_percentage: 12.5, status: 'active' });
  t.is((await agent(a.key, 'PATCH', `/campaigns/${a.campaign_id}`, { commission_percentage: 0 })).body.commission_percentage, 0);
  t.is((await agent(a.key, 'PATCH', `/campaigns/${a.campaign_id}`, { commission_percentage: 100 })).body.commission_percentage, 100);
  for (const body of [
    { commission_percentage: 100.5 },
    { commission_percentage: -1 },
    { commission_percentage: '10' },
    { status: 'paused' },
    { campaign_type: 'private' },
    {},
  ]) {
    t.is((await agent(a.key, 'PATCH', `/campaigns/${a.campaign_id}`, body)).status, 422, JSON.stringify(body));
  }
  t.like(await h().db('campaigns').where('id', a.campaign_id).first(), { status: 'active', campaign_type: 'public' });
  t.is((await audits(a.keyId, 'svc_update_campaign')).length, 3);
});

test('POST /apps/{app_id}/campaigns: created as draft, public unless told; FREE_ACCESS is not an agent type', async (t) => {
  const a = await account();
  const res = await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'Creators', commission_percentage: 25 });
  t.is(res.status, 201, res.text);
  t.like(res.body, {
    app_id: a.app_id,
    org_id: a.org_id,
    name: 'Creators',
    status: 'draft',
    campaign_type: 'public',
    commission_percentage: 25,
    activated_at: null,
  });
  const invite = await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, {
    name: 'VIP',
    commission_percentage: 40,
    campaign_type: 'invite_only',
    status: 'active',
  });
  t.is(invite.status, 422, 'status is not a create field');
  const vip = await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, {
    name: 'VIP',
    commission_percentage: 40,
    campaign_type: 'invite_only',
  });
  t.like(vip.body, { status: 'draft', campaign_type: 'invite_only' });
  t.is(
    (await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'Free', commission_percentage: 0, campaign_type: 'FREE_ACCESS' }))
      .status,
    422,
  );
  t.is((await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'No terms' })).status, 422);
  const rows = await audits(a.keyId, 'svc_create_campaign');
  t.is(rows.length, 2);
  t.like(rows[0], { actor_type: 'agent_key', org_id: a.org_id, target_id: a.app_id });
});

test(
  'POST /campaigns/{campaign_id}/status: activation needs the minimum escrow ' +
    '(config or per-org), else 402 naming the top-up link; pausing always works',
  async (t) => {
    const a = await account();
    const created = await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'Next', commission_percentage: 10 });
    const path = `/campaigns/${created.body.id}/status`;
    const on = await agent(a.key, 'POST', path, { status: 'active' });
    t.is(on.status, 200, on.text);
    t.like(on.body, { id: created.body.id, status: 'active', changed: true });
    t.truthy(on.body.activated_at);
    t.like((await agent(a.key, 'POST', path, { status: 'active' })).body, { status: 'active', changed: false });
    t.like((await agent(a.key, 'POST', path, { status: 'paused' })).body, { status: 'paused', changed: true });
    t.like((await agent(a.key, 'POST', path, { status: 'paused' })).body, { status: 'paused', changed: false });
    for (const status of ['draft', 'archived', 'ACTIVE']) t.is((await agent(a.key, 'POST', path, { status })).status, 422, status);

    // The organization's own minimum (1000 USD wallet, 5000 USD minimum) refuses activation.
    await h()
      .db('organizations')
      .where('id', a.org_id)
      .update({ min_escrow_micros: toMicros(5000) });
    const refused = await agent(a.key, 'POST', path, { status: 'active' });
    t.is(refused.status, 402, refused.text);
    t.true(refused.body.detail.includes(TOPUP), refused.body.detail);
    t.regex(refused.body.detail, /\$5000\.00/);
    t.like(refused.body, { next_tool: 'svc_get_wallet_topup_link', call: TOPUP });
    t.is((await h().db('campaigns').where('id', created.body.id).first()).status, 'paused');
    t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/status`, { status: 'paused' })).status, 200, 'pausing needs no money');
    await h().db('organizations').where('id', a.org_id).update({ min_escrow_micros: null });
    t.is((await agent(a.key, 'POST', path, { status: 'active' })).status, 200);

    // An empty wallet is below the default minimum (MIN_ESCROW_USD 100).
    const broke = await account({ walletUsd: 0 });
    const draft = await agent(broke.key, 'POST', `/apps/${broke.app_id}/campaigns`, { name: 'Hope', commission_percentage: 10 });
    const no = await agent(broke.key, 'POST', `/campaigns/${draft.body.id}/status`, { status: 'active' });
    t.is(no.status, 402);
    t.regex(no.body.detail, /\$100\.00.*\$0\.00/);
    t.true(no.body.detail.includes(TOPUP));
    // Reserved funds do not count: 150 USD balance with 100 reserved is 50 safe.
    await appendLedgerEntry(h().db, {
      orgId: broke.org_id,
      entryType: 'topup',
      balanceDeltaMicros: toMicros(150),
      reservedDeltaMicros: 0,
      idempotencyKey: `t:${tag()}`,
    });
    await reserveByApprovedAward(h().db, { org_id: broke.org_id, campaign_id: draft.body.id }, toMicros(100));
    t.is((await agent(broke.key, 'POST', `/campaigns/${draft.body.id}/status`, { status: 'active' })).status, 402);
    await appendLedgerEntry(h().db, {
      orgId: broke.org_id,
      entryType: 'topup',
      balanceDeltaMicros: toMicros(50),
      reservedDeltaMicros: 0,
      idempotencyKey: `t:${tag()}`,
    });
    t.is(
      (await agent(broke.key, 'POST', `/campaigns/${draft.body.id}/status`, { status: 'active' })).status,
      200,
      'exactly the minimum is enough',
    );
    t.is((await audits(broke.keyId, 'svc_set_campaign_status')).length, 1, 'refused activations are not audited');
  },
);

test("a paused campaign's code stops attributing; reactivated, it attributes again", async (t) => {
  const validate = () => sdkClient(h().baseUrl, seed.sdk_key).post('/validate-code', { code: seed.creator_code });
  t.like(await validate(), { status: 200, body: { valid: true, code: seed.creator_code } });
  t.is((await agent(seed.agent_key, 'POST', `/campaigns/${seed.campaign_id}/status`, { status: 'paused' })).status, 200);
  try {
    t.like(await validate(), { status: 200, body: { valid: false, error_code: 'CODE_NOT_FOUND' } });
    t.is((await sdkClient(h().baseUrl, seed.sdk_key).post('/set-referral-code', { code: seed.creator_code })).status, 404);
    t.false((await sdkClient(h().baseUrl, seed.sdk_key).get('/campaigns')).body.some((c: { id: string }) => c.id === seed.campaign_id));
  } finally {
    t.is((await agent(seed.agent_key, 'POST', `/campaigns/${seed.campaign_id}/status`, { status: 'active' })).status, 200);
  }
  t.like(await validate(), { body: { valid: true, campaign: { id: seed.campaign_id } } });
});

test(
  "GET /wallet: the spec's balance, reserved, safe_available (USD) " +
    'beside micros, activation readiness, invite capacity, auto-recharge',
  async (t) => {
    const a = await account();
    const res = await agent(a.key, 'GET', '/wallet');
    t.is(res.status, 200, res.text);
    t.like(res.body, {
      org_id: a.org_id,
      currency: 'USD',
      balance: 1000,
      reserved: 0,
      safe_available: 1000,
      balance_micros: 1_000_000_000,
      reserved_micros: 0,
      safe_available_micros: 1_000_000_000,
      can_activate_campaigns: true,
      min_escrow: 100,
      min_escrow_micros: 100_000_000,
      auto_recharge_enabled: false,
      invite_capacity: { marketplace_slots_total: 25, marketplace_slots_used: 0, daily_email_budget: 50, emails_sent_today: 0 },
    });
    t.true(res.body.top_up.includes(TOPUP));
    for (const old of ['balance_usd', 'reserved_usd', 'safe_available_usd']) t.false(old in res.body, old);

    await reserveByApprovedAward(h().db, a, toMicros(950.5));
    const invitation = (email: string, status = 'PENDING') => ({
      campaign_id: a.campaign_id,
      org_id: a.org_id,
      email,
      token_hash: hashToken(tag()),
      status,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    await h()
      .db('invitations')
      .insert([invitation('a@example.com'), invitation('b@example.com'), invitation('c@example.com', 'WITHDRAWN')]);
    const email = (orgId: string | null, createdAt?: Date) => ({
      org_id: orgId,
      to_address: 'x@example.com',
      subject: 's',
      body_text: 'b',
      dedup_key: `d:${tag()}`,
      ...(createdAt ? { created_at: createdAt } : {}),
    });
    await h()
      .db('email_outbox')
      .insert([email(a.org_id), email(a.org_id, new Date(Date.now() - 2 * 86_400_000)), email(other.org_id), email(null)]);
    await h().db('organizations').where('id', a.org_id).update({
      marketplace_slots: 3,
      daily_email_budget: 5,
      auto_recharge_enabled: true,
      auto_recharge_threshold_micros: 40_000_000,
      auto_recharge_amount_micros: 100_000_000,
      auto_recharge_provider: 'test',
      auto_recharge_payment_method_id: 'test_card_ok',
      auto_recharge_payment_method_label: 'test card',
    });

    const after = await agent(a.key, 'GET', '/wallet');
    t.like(after.body, {
      balance: 1000,
      reserved: 950.5,
      safe_available: 49.5,
      reserved_micros: 950_500_000,
      safe_available_micros: 49_500_000,
      can_activate_campaigns: false,
      auto_recharge_enabled: true,
      auto_recharge: { enabled: true, threshold: 40, amount: 100, provider: 'test', payment_method: 'test card', last_result: null },
      invite_capacity: { marketplace_slots_total: 3, marketplace_slots_used: 2, daily_email_budget: 5, emails_sent_today: 1 },
    });

    t.is((await agent(a.key, 'GET', `/wallet?org_id=${other.org_id}`)).status, 404);
    t.is((await agent(a.key, 'GET', `/wallet?org_id=${a.org_id}`)).status, 200);
    const noBilling = await createAgentKey(h().db, {
      orgId: a.org_id,
      name: 'no billing',
      scopes: SCOPES.filter((s) => s !== 'billing:read'),
    });
    const denied = await agent(noBilling.key, 'GET', '/wallet');
    t.is(denied.status, 403);
    t.regex(denied.body.detail, /billing:read/);
  },
);

test('ids of another organization are 404 on every write, and nothing changes or is audited', async (t) => {
  const a = await account();
  const before = await h().db('apps').where('id', other.app_id).first();
  const calls: [string, string, unknown][] = [
    ['POST', `/apps/${other.app_id}/regenerate-webhook-secret`, undefined],
    ['PATCH', `/apps/${other.app_id}`, { name: 'Hijacked' }],
    ['POST', `/apps/${other.app_id}/campaigns`, { name: 'Hijack', commission_percentage: 90 }],
    ['PATCH', `/campaigns/${other.campaign_id}`, { commission_percentage: 90 }],
    ['POST', `/campaigns/${other.campaign_id}/status`, { status: 'paused' }],
    ['POST', '/apps/app_doesnotexist/regenerate-webhook-secret', undefined],
    ['PATCH', '/campaigns/cmp_doesnotexist', { name: 'x' }],
  ];
  for (const [method, path, body] of calls) {
    const res = await agent(a.key, method, path, body);
    t.is(res.status, 404, `${method} ${path}: ${res.text}`);
  }
  const after = await h().db('apps').where('id', other.app_id).first();
  t.like(after, { name: before.name, webhook_secret_hash: before.webhook_secret_hash });
  t.like(await h().db('campaigns').where('id', other.campaign_id).first(), { status: 'active', commission_percentage: '30.000' });
  t.is((await h().db('campaigns').where({ app_id: other.app_id, name: 'Hijack' }).select('id')).length, 0);
  t.is((await h().db('audit_log').where('actor_id', a.keyId).select('id')).length, 0);
});

test('a missing scope is 403 naming it on every write and the wallet; nothing is audited', async (t) => {
  const a = await account();
  const readOnly = await createAgentKey(h().db, { orgId: a.org_id, name: 'read only', scopes: ['apps:read', 'campaigns:read'] });
  const appsOnly = await createAgentKey(h().db, { orgId: a.org_id, name: 'apps only', scopes: ['apps:read', 'apps:write'] });
  const calls: [string, string, string, unknown, string][] = [
    [readOnly.key, 'POST', '/organizations', { name: 'x' }, 'apps:write'],
    [readOnly.key, 'POST', '/provision', provisionInput('x'), 'apps:write'],
    [appsOnly.key, 'POST', '/provision', provisionInput('x'), 'campaigns:write'],
    [readOnly.key, 'POST', `/apps/${a.app_id}/regenerate-webhook-secret`, undefined, 'apps:write'],
    [readOnly.key, 'PATCH', `/apps/${a.app_id}`, { name: 'x' }, 'apps:write'],
    [readOnly.key, 'PATCH', `/campaigns/${a.campaign_id}`, { name: 'x' }, 'campaigns:write'],
    [appsOnly.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'x', commission_percentage: 1 }, 'campaigns:write'],
    [appsOnly.key, 'POST', `/campaigns/${a.campaign_id}/status`, { status: 'paused' }, 'campaigns:write'],
    [readOnly.key, 'GET', '/wallet', undefined, 'billing:read'],
  ];
  for (const [key, method, path, body, scope] of calls) {
    const res = await agent(key, method, path, body);
    t.is(res.status, 403, `${method} ${path}`);
    t.true(res.body.detail.includes(scope), `${method} ${path}: ${res.body.detail}`);
  }
  t.is((await h().db('audit_log').whereIn('actor_id', [readOnly.id, appsOnly.id]).select('id')).length, 0);
  t.like(await h().db('campaigns').where('id', a.campaign_id).first(), { status: 'active' });
});

test('every successful write is one audit row with the agent as actor', async (t) => {
  const a = await account();
  const created = await agent(a.key, 'POST', `/apps/${a.app_id}/campaigns`, { name: 'Audited', commission_percentage: 5 });
  const writes: [string, string, unknown, string][] = [
    ['POST', '/provision', provisionInput(`Audit ${tag()}`), 'svc_provision'],
    ['POST', `/apps/${a.app_id}/regenerate-webhook-secret`, undefined, 'svc_regenerate_webhook_secret'],
    ['PATCH', `/apps/${a.app_id}`, { tagline: 'Audited' }, 'svc_update_app'],
    ['PATCH', `/campaigns/${created.body.id}`, { commission_percentage: 6 }, 'svc_update_campaign'],
    ['POST', `/campaigns/${created.body.id}/status`, { status: 'active' }, 'svc_set_campaign_status'],
  ];
  for (const [method, path, body, action] of writes) {
    const res = await agent(a.key, method, path, body);
    t.true(res.status < 300, `${method} ${path}: ${res.text}`);
    const rows = await audits(a.keyId, action);
    t.is(rows.length, 1, action);
    t.like(rows[0], { actor_type: 'agent_key', actor_id: a.keyId, org_id: a.org_id, action });
  }
  t.is((await audits(a.keyId, 'svc_create_campaign')).length, 1);
  await agent(a.key, 'GET', '/wallet');
  await agent(a.key, 'GET', `/apps/check-slug/anything-${tag()}`);
  t.is((await h().db('audit_log').where('actor_id', a.keyId).select('id')).length, writes.length + 1, 'reads are not audited');
});
