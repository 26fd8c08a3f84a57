// The agent API's creator endpoints over HTTP: invite (single and batch with per-item results), marketplace
// capacity (slots and daily email budget, per-org overrides) and the wallet escrow (402 naming the top-up-link
// endpoint), the outbox email carrying the join URL, withdraw freeing a slot, the invitation list, join-link
// warnings, affiliates, tenancy (404), scopes (403) and audit rows. An invitation created here admits its creator
// through the public join endpoint on an invite_only campaign.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test, { worker: false });
const TOPUP = 'POST /api/agent/wallet/topup-link';

test.before(async () => {
  await h.ready();
});

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const tag = () => randomBytes(4).toString('hex');
const mail = () => `c-${tag()}@example.com`;

async function account(
  opts: { walletUsd?: number; scopes?: readonly Scope[]; slots?: number; emails?: number } = {},
): Promise<SeededApp & { key: string; keyId: string }> {
  const app = await seedApp(h().db, { walletUsd: opts.walletUsd });
  if (opts.slots !== undefined || opts.emails !== undefined) {
    await h()
      .db('organizations')
      .where('id', app.org_id)
      .update({ marketplace_slots: opts.slots ?? null, daily_email_budget: opts.emails ?? null });
  }
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: opts.scopes ?? SCOPES });
  return { ...app, key: key.key, keyId: key.id };
}

const outbox = (invitationId: string) => h().db('email_outbox').where('dedup_key', `invite:${invitationId}`).first();
const tokenFrom = (body: string) => /invitation_token=(inv_[A-Za-z0-9_-]+)/.exec(body)?.[1];

test('POST /campaigns/{id}/invite: 201 PENDING invitation, token only in the queued email, hash stored, audited', async (t) => {
  const a = await account();
  const email = mail();
  const res = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, {
    email,
    name: 'Ann',
    message: 'Love your videos',
    lang: 'de',
  });
  t.is(res.status, 201, res.text);
  t.like(res.body, { campaign_id: a.campaign_id, email, name: 'Ann', lang: 'de', status: 'PENDING', email_status: 'queued' });
  t.regex(res.body.invitation_id, /^inv_/);
  const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
  t.true(days > 13.9 && days <= 14, String(days));

  const row = await outbox(res.body.invitation_id);
  t.like(row, { org_id: a.org_id, to_address: email, status: 'queued', template: 'creator_invitation' });
  t.truthy(row.subject);
  const token = tokenFrom(row.body_text)!;
  t.truthy(token);
  t.true(row.body_text.includes(`${h().baseUrl}/dashboard/join/${a.campaign_id}?invitation_token=${token}&lang=de`));
  t.true(row.body_text.includes('Love your videos'));
  t.false(res.text.includes(token));
  const inv = await h().db('invitations').where('id', res.body.invitation_id).first();
  t.like(inv, { status: 'PENDING', org_id: a.org_id, token_hash: (await import('../../lib/credentials.js')).hashToken(token) });
  t.false(res.text.includes(inv.token_hash));
  t.false(JSON.stringify(row.template_data).includes(token));

  const audit = await h().db('audit_log').where({ actor_id: a.keyId, action: 'svc_invite_creator' }).select('*');
  t.is(audit.length, 1);
  t.like(audit[0], { org_id: a.org_id, target_id: a.campaign_id });

  // The same email again while pending: 409, nothing new queued.
  const dup = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: email.toUpperCase() });
  t.is(dup.status, 409, dup.text);
  t.is((await h().db('invitations').where({ campaign_id: a.campaign_id }).select('id')).length, 1);
  // Bad input: 422.
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: 'not-an-email' })).status, 422);
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, {})).status, 422);
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email, creators: [{ email }] })).status, 422);
});

test('invite: 402 naming the top-up-link endpoint when the wallet is below the minimum escrow; nothing written', async (t) => {
  const a = await account({ walletUsd: 0 });
  const res = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() });
  t.is(res.status, 402, res.text);
  t.true(res.body.detail.includes(TOPUP), res.body.detail);
  const batch = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { creators: [{ email: mail() }] });
  t.is(batch.status, 402);
  t.is((await h().db('invitations').where({ org_id: a.org_id }).select('id')).length, 0);
  t.is((await h().db('email_outbox').where({ org_id: a.org_id }).select('id')).length, 0);
  t.is((await h().db('audit_log').where({ actor_id: a.keyId }).select('id')).length, 0);
});

test('capacity: slots exhausted -> 402; withdraw frees the slot; 409 withdrawing twice; daily email budget -> 402', async (t) => {
  const a = await account({ slots: 2 });
  const first = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() });
  t.is(first.status, 201, first.text);
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() })).status, 201);
  const full = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() });
  t.is(full.status, 402, full.text);
  t.regex(full.body.detail, /marketplace slots/);
  t.true(full.body.detail.includes(TOPUP));
  t.like((await agent(a.key, 'GET', '/wallet')).body.invite_capacity, {
    marketplace_slots_total: 2,
    marketplace_slots_used: 2,
    marketplace_slots_available: 0,
  });

  const w = await agent(a.key, 'POST', `/invitations/${first.body.invitation_id}/withdraw`);
  t.is(w.status, 200, w.text);
  t.like(w.body, { invitation_id: first.body.invitation_id, status: 'WITHDRAWN' });
  t.truthy(w.body.withdrawn_at);
  t.like(await h().db('invitations').where('id', first.body.invitation_id).first(), { status: 'WITHDRAWN' });
  t.is((await h().db('audit_log').where({ actor_id: a.keyId, action: 'svc_withdraw_invitation' }).select('id')).length, 1);
  const again = await agent(a.key, 'POST', `/invitations/${first.body.invitation_id}/withdraw`);
  t.is(again.status, 409);
  t.regex(again.body.detail, /WITHDRAWN/);
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() })).status, 201);

  // Daily email budget: 3 emails already queued today with budget 3 (slots no longer the limit).
  await h().db('organizations').where('id', a.org_id).update({ marketplace_slots: 50, daily_email_budget: 3 });
  const spent = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() });
  t.is(spent.status, 402, spent.text);
  t.regex(spent.body.detail, /daily email budget/);
});

test('batch invite: per-item results with partial success (duplicates, invalid email, capacity running out)', async (t) => {
  const a = await account({ slots: 3 });
  const existing = mail();
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: existing })).status, 201);
  const [e1, e2, e3] = [mail(), mail(), mail()];
  const res = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, {
    creators: [{ email: e1, name: 'One', lang: 'fr' }, { email: existing }, { email: 'nope' }, { email: e1 }, { email: e2 }, { email: e3 }],
  });
  t.is(res.status, 200, res.text);
  t.like(res.body, { created: 2, failed: 4 });
  const r = res.body.results as { email: string; ok: boolean; invitation_id?: string; error?: string }[];
  t.deepEqual(
    r.map((x) => [x.email, x.ok, x.error]),
    [
      [e1, true, undefined],
      [existing, false, 'duplicate_pending'],
      ['nope', false, 'invalid_email'],
      [e1, false, 'duplicate_in_batch'],
      [e2, true, undefined],
      [e3, false, 'no_slots'],
    ],
  );
  t.regex(r[0]!.invitation_id!, /^inv_/);
  t.true(tokenFrom((await outbox(r[0]!.invitation_id!)).body_text) !== undefined);
  t.true((await outbox(r[0]!.invitation_id!)).body_text.includes('&lang=fr'));
  t.false(res.text.includes('invitation_token'));
  t.is((await h().db('email_outbox').where({ org_id: a.org_id }).select('id')).length, 3);

  const tooMany = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, {
    creators: Array.from({ length: 101 }, () => ({ email: mail() })),
  });
  t.is(tooMany.status, 422);
});

test(
  'GET /invitations: default PENDING, status filter and all, ' + 'campaign filter, never a token hash; other orgs 404/invisible',
  async (t) => {
    const a = await account();
    const b = await account();
    const i1 = (await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() })).body;
    const i2 = (await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() })).body;
    await agent(b.key, 'POST', `/campaigns/${b.campaign_id}/invite`, { email: mail() });
    t.is((await agent(a.key, 'POST', `/invitations/${i2.invitation_id}/withdraw`)).status, 200);
    // An expired one: flips to EXPIRED when listed.
    const i3 = (await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() })).body;
    await h()
      .db('invitations')
      .where('id', i3.invitation_id)
      .update({ expires_at: new Date(Date.now() - 1000) });

    const pending = await agent(a.key, 'GET', '/invitations');
    t.is(pending.status, 200, pending.text);
    t.deepEqual(
      pending.body.invitations.map((i: { invitation_id: string }) => i.invitation_id),
      [i1.invitation_id],
    );
    t.false(pending.text.includes('token'));
    const withdrawn = await agent(a.key, 'GET', '/invitations?status=WITHDRAWN');
    t.deepEqual(
      withdrawn.body.invitations.map((i: { invitation_id: string }) => i.invitation_id),
      [i2.invitation_id],
    );
    const expired = await agent(a.key, 'GET', '/invitations?status=EXPIRED');
    t.deepEqual(
      expired.body.invitations.map((i: { invitation_id: string }) => i.invitation_id),
      [i3.invitation_id],
    );
    const all = await agent(a.key, 'GET', `/invitations?status=all&campaign_id=${a.campaign_id}`);
    t.is(all.body.count, 3);
    t.is((await agent(a.key, 'GET', '/invitations?status=bogus')).status, 422);
    t.is((await agent(a.key, 'GET', `/invitations?campaign_id=${b.campaign_id}`)).status, 404);
    // Withdrawing an expired invitation: 409; another org's invitation: 404.
    t.is((await agent(a.key, 'POST', `/invitations/${i3.invitation_id}/withdraw`)).status, 409);
    const bInv = (await agent(b.key, 'GET', '/invitations')).body.invitations[0];
    t.is((await agent(a.key, 'POST', `/invitations/${bInv.invitation_id}/withdraw`)).status, 404);
    t.is((await agent(a.key, 'POST', '/invitations/inv_nope/withdraw')).status, 404);
  },
);

test('an invitation created here admits its creator through the public join on an invite_only campaign', async (t) => {
  const a = await account();
  await h().db('campaigns').where('id', a.campaign_id).update({ campaign_type: 'invite_only' });
  const email = mail();
  const inv = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email, name: 'Zoe' });
  t.is(inv.status, 201, inv.text);
  const token = tokenFrom((await outbox(inv.body.invitation_id)).body_text)!;
  const join = (body: Record<string, unknown>) => request(h().baseUrl, 'POST', `/api/public/campaigns/${a.campaign_id}/join`, { body });
  t.is((await join({ name: 'Zoe', email })).status, 403);
  const joined = await join({ name: 'Zoe', email, invitation_token: token, social_handle: '@zoe', follower_count: 1200 });
  t.is(joined.status, 201, joined.text);
  t.like(await h().db('invitations').where('id', inv.body.invitation_id).first(), {
    status: 'ACCEPTED',
    creator_id: joined.body.creator_id,
  });
  const accepted = await agent(a.key, 'GET', '/invitations?status=ACCEPTED');
  t.like(accepted.body.invitations[0], { invitation_id: inv.body.invitation_id, status: 'ACCEPTED', creator_id: joined.body.creator_id });
  // Accepted: no longer withdrawable, and the creator shows among the affiliates.
  t.is((await agent(a.key, 'POST', `/invitations/${inv.body.invitation_id}/withdraw`)).status, 409);
  const aff = await agent(a.key, 'GET', `/campaigns/${a.campaign_id}/affiliates`);
  t.is(aff.status, 200, aff.text);
  t.like(
    aff.body.affiliates.find((x: { creator_id: string }) => x.creator_id === joined.body.creator_id),
    {
      code: joined.body.code,
      social_handle: '@zoe',
      follower_count: 1200,
      source: 'invite',
      clicks: 0,
      installs: 0,
      production_conversions: 0,
    },
  );
  // Inviting an email that already joined: 409.
  t.is((await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email })).status, 409);
  // A withdrawn invitation's token no longer admits anyone.
  const email2 = mail();
  const inv2 = await agent(a.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: email2 });
  const token2 = tokenFrom((await outbox(inv2.body.invitation_id)).body_text)!;
  await agent(a.key, 'POST', `/invitations/${inv2.body.invitation_id}/withdraw`);
  t.is((await join({ name: 'Late', email: email2, invitation_token: token2 })).status, 403);
});

test('GET /campaigns/{id}/affiliates: counts clicks, attributed installs and production conversions per code', async (t) => {
  const a = await account();
  const cc = await h().db('creator_codes').where({ campaign_id: a.campaign_id, code: a.creator_code }).first();
  await h()
    .db('clicks')
    .insert([
      { app_id: a.app_id, campaign_id: a.campaign_id, creator_code_id: cc.id, code: a.creator_code },
      { app_id: a.app_id, campaign_id: a.campaign_id, creator_code_id: cc.id, code: a.creator_code },
    ]);
  const res = await agent(a.key, 'GET', `/campaigns/${a.campaign_id}/affiliates`);
  t.is(res.status, 200, res.text);
  t.is(res.body.count, 1);
  t.like(res.body.affiliates[0], {
    creator_id: a.creator_id,
    code: a.creator_code,
    clicks: 2,
    installs: 0,
    production_conversions: 0,
    status: 'active',
  });
  t.truthy(res.body.affiliates[0].joined_at);
  t.false('email' in res.body.affiliates[0]);
  const b = await account();
  t.is((await agent(b.key, 'GET', `/campaigns/${a.campaign_id}/affiliates`)).status, 404);
});

test('GET /campaigns/{id}/join-link: url with lang, readiness warnings', async (t) => {
  const a = await account();
  await h().db('apps').where('id', a.app_id).update({ web_url: 'https://example.com' });
  const ok = await agent(a.key, 'GET', `/campaigns/${a.campaign_id}/join-link?lang=de`);
  t.is(ok.status, 200, ok.text);
  t.like(ok.body, { url: `${h().baseUrl}/dashboard/join/${a.campaign_id}?lang=de`, lang: 'de', campaign_status: 'active', ready: true });
  t.deepEqual(ok.body.warnings, []);
  t.is((await agent(a.key, 'GET', `/campaigns/${a.campaign_id}/join-link`)).body.url, `${h().baseUrl}/dashboard/join/${a.campaign_id}`);
  t.is((await agent(a.key, 'GET', `/campaigns/${a.campaign_id}/join-link?lang=${encodeURIComponent('"><x')}`)).status, 422);

  const poor = await account({ walletUsd: 0 });
  await h().db('apps').where('id', poor.app_id).update({ ios_store_url: null, android_store_url: null, web_url: null });
  await h().db('campaigns').where('id', poor.campaign_id).update({ status: 'paused', campaign_type: 'invite_only' });
  const warn = await agent(poor.key, 'GET', `/campaigns/${poor.campaign_id}/join-link?lang=ja`);
  t.is(warn.status, 200, warn.text);
  t.like(warn.body, { campaign_status: 'paused', ready: false, lang: 'ja' });
  const text = warn.body.warnings.join('\n');
  t.regex(text, /paused/);
  t.regex(text, /invite_only/);
  t.true(text.includes(TOPUP));
  t.regex(text, /no App Store, Play Store or web URL/);
  t.regex(text, /English/);
  t.is((await agent(a.key, 'GET', `/campaigns/${poor.campaign_id}/join-link`)).status, 404);
});

test('tenancy 404 and scopes 403 naming creators:read / creators:write', async (t) => {
  const a = await account();
  const b = await account();
  t.is((await agent(a.key, 'POST', `/campaigns/${b.campaign_id}/invite`, { email: mail() })).status, 404);
  t.is((await h().db('invitations').where({ org_id: b.org_id }).select('id')).length, 0);
  const reader = await createAgentKey(h().db, { orgId: a.org_id, name: 'read only', scopes: ['creators:read'] });
  const denied = await agent(reader.key, 'POST', `/campaigns/${a.campaign_id}/invite`, { email: mail() });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /creators:write/);
  t.is((await agent(reader.key, 'POST', '/invitations/inv_x/withdraw')).status, 403);
  t.is((await agent(reader.key, 'GET', '/invitations')).status, 200);
  const none = await createAgentKey(h().db, { orgId: a.org_id, name: 'no creators', scopes: ['apps:read'] });
  for (const path of ['/invitations', `/campaigns/${a.campaign_id}/join-link`, `/campaigns/${a.campaign_id}/affiliates`]) {
    const res = await agent(none.key, 'GET', path);
    t.is(res.status, 403, path);
    t.regex(res.body.detail, /creators:read/);
  }
});
