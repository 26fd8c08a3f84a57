// Creators' store offer codes through the agent API over real HTTP (CONTRACT.md "Creator offer codes"): the 201
// shape with its redemption link, 409 naming `value` for a value another creator of the app holds and for a retired
// one (and for two adds racing), 422 naming fields, 404 for a creator who is not an active member, retire keeping
// the row (idempotent), scopes and tenancy; then integration status's `sdk_less_attribution` going from missing to
// ready, and the three MCP tools in both protocol eras.
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { request } from '../helpers/http.js';
import { callToolInEra, MCP_ERAS, type McpEra } from '../helpers/mcp.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { providerEvent, sendWebhook } from '../helpers/subprovider-events.js';

const { h } = useSeededHarness(test, { worker: false });

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const tag = () => randomBytes(4).toString('hex');

async function account(scopes: readonly Scope[] = SCOPES): Promise<SeededApp & { key: string }> {
  const app = await seedApp(h().db);
  return { ...app, key: (await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes })).key };
}
const codesPath = (a: { campaign_id: string }, creatorId: string) => `/campaigns/${a.campaign_id}/affiliates/${creatorId}/offer-codes`;

/** A second creator joins the campaign through the public join endpoint. */
async function joinCreator(campaignId: string): Promise<string> {
  const res = await request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, {
    body: { name: 'Second', email: `second-${tag()}@example.com` },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.creator_id as string;
}

const countOf = async (q: { count: (c: string) => Promise<{ n: string | number }[]> }) => Number((await q.count('* as n'))[0]!.n);
const fieldsOf = (body: { detail: { loc: string[] }[] }) => body.detail.map((p) => p.loc.join('.')).sort();

test('POST offer-codes: 201 with the contract shape and the App Store redemption link; GET lists it', async (t) => {
  const a = await account();
  const meta = await agent(a.key, 'PATCH', `/apps/${a.app_id}/apple-meta`, { app_apple_id: '1234567890' });
  t.is(meta.status, 200, meta.text);
  const res = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'Maya spring', custom_code: 'MAYA30' });
  t.is(res.status, 201, res.text);
  t.like(res.body, {
    campaign_id: a.campaign_id,
    creator_id: a.creator_id,
    platform: 'ios',
    match: 'reference_name',
    value: 'Maya spring',
    custom_code: 'MAYA30',
    redeem_url: 'https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=MAYA30',
    status: 'active',
    retired_at: null,
  });
  t.regex(res.body.id, /^ofc_/);
  const play = await agent(a.key, 'POST', codesPath(a, a.creator_id), {
    platform: 'android',
    value: 'maya-30',
    product_id: 'premium.yearly',
    base_plan_id: 'yearly',
    custom_code: 'MAYA30',
  });
  t.is(play.status, 201, play.text);
  t.like(play.body, {
    match: 'offer_id',
    product_id: 'premium.yearly',
    base_plan_id: 'yearly',
    redeem_url: 'https://play.google.com/redeem?code=MAYA30',
  });

  const list = await agent(a.key, 'GET', codesPath(a, a.creator_id));
  t.is(list.status, 200, list.text);
  t.deepEqual(
    list.body.offer_codes.map((c: { id: string }) => c.id),
    [res.body.id, play.body.id],
  );
  t.is(list.body.count, 2);
  const audit = await h().db('audit_log').where({ org_id: a.org_id, action: 'svc_add_offer_code' });
  t.is(audit.length, 2, 'each add is audited with the agent as actor');
});

test('409 naming value: a value another creator of the app holds, and a retired one; the other platform is free', async (t) => {
  const a = await account();
  const other = await joinCreator(a.campaign_id);
  const first = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'maya' });
  t.is(first.status, 201, first.text);
  const taken = await agent(a.key, 'POST', codesPath(a, other), { platform: 'ios', value: 'maya' });
  t.is(taken.status, 409, taken.text);
  t.deepEqual(fieldsOf(taken.body), ['body.value']);
  t.regex(taken.body.detail[0].msg, /already has the ios offer code "maya"/);
  const sameCreator = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'maya' });
  t.is(sameCreator.status, 409, 'the holder cannot add it twice either');
  const tagOnPlay = await agent(a.key, 'POST', codesPath(a, other), { platform: 'android', value: 'maya' });
  t.is(tagOnPlay.status, 201, `unique per platform: ${tagOnPlay.text}`);

  const retired = await agent(a.key, 'POST', `/offer-codes/${first.body.id}/retire`);
  t.is(retired.status, 200, retired.text);
  const reuse = await agent(a.key, 'POST', codesPath(a, other), { platform: 'ios', value: 'maya' });
  t.is(reuse.status, 409, `a retired value is never handed out again: ${reuse.text}`);
  t.deepEqual(fieldsOf(reuse.body), ['body.value']);
  t.is(await countOf(h().db('offer_codes').where({ app_id: a.app_id, value: 'maya' })), 2, 'nothing half-written');
});

test('two adds of one value at the same moment: one 201, one 409, never a 500', async (t) => {
  const a = await account();
  const other = await joinCreator(a.campaign_id);
  const value = `race-${tag()}`;
  const answers = await Promise.all(
    [a.creator_id, other, a.creator_id, other].map((c) => agent(a.key, 'POST', codesPath(a, c), { platform: 'android', value })),
  );
  t.deepEqual(answers.map((r) => r.status).sort(), [201, 409, 409, 409], answers.map((r) => r.text).join('\n'));
});

test('422 names each field; a creator who is not an active member is 404; nothing is written', async (t) => {
  const a = await account();
  const bad = await agent(a.key, 'POST', codesPath(a, a.creator_id), {
    platform: 'android',
    value: 'Not A Tag',
    product_id: 'premium',
    custom_code: 'has space',
  });
  t.is(bad.status, 422, bad.text);
  t.deepEqual(fieldsOf(bad.body), ['body.base_plan_id', 'body.custom_code', 'body.value']);
  const schema = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'web', value: 'x', extra: 1 });
  t.is(schema.status, 422, schema.text);
  t.deepEqual(fieldsOf(schema.body), ['body.extra', 'body.platform']);
  const ios = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: ' padded' });
  t.is(ios.status, 422);
  t.regex(ios.body.detail[0].msg, /no leading or trailing space/);

  const stranger = await seedApp(h().db);
  const notMember = await agent(a.key, 'POST', codesPath(a, stranger.creator_id), { platform: 'ios', value: 'x' });
  t.is(notMember.status, 404, notMember.text);
  t.regex(notMember.body.detail, /not a member of this campaign/);
  t.is((await agent(a.key, 'GET', codesPath(a, stranger.creator_id))).status, 404);
  await h()
    .db('creator_codes')
    .where({ campaign_id: a.campaign_id, creator_id: a.creator_id })
    .update({ status: 'removed', removed_at: new Date() });
  const removed = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'x' });
  t.is(removed.status, 404, 'a removed member gets no new code');
  t.is((await agent(a.key, 'GET', codesPath(a, a.creator_id))).status, 200, 'but keeps their list');
  t.is(await countOf(h().db('offer_codes').where('app_id', a.app_id)), 0);
});

test('retire: 200 retired, repeat answers the same, the row stays listed; scopes and tenancy', async (t) => {
  const a = await account();
  const made = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'android', value: 'maya' });
  const first = await agent(a.key, 'POST', `/offer-codes/${made.body.id}/retire`);
  t.is(first.status, 200, first.text);
  t.like(first.body, { id: made.body.id, status: 'retired', value: 'maya' });
  t.truthy(first.body.retired_at);
  const again = await agent(a.key, 'POST', `/offer-codes/${made.body.id}/retire`);
  t.is(again.status, 200);
  t.is(again.body.retired_at, first.body.retired_at, 'idempotent: the first retirement stands');
  const list = await agent(a.key, 'GET', codesPath(a, a.creator_id));
  t.like(list.body.offer_codes[0], { id: made.body.id, status: 'retired' });

  const reader = await createAgentKey(h().db, { orgId: a.org_id, name: 'reader', scopes: ['creators:read'] });
  t.is((await agent(reader.key, 'GET', codesPath(a, a.creator_id))).status, 200);
  const denied = await agent(reader.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'y' });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /creators:write/);
  const elsewhere = await account();
  t.is((await agent(elsewhere.key, 'POST', `/offer-codes/${made.body.id}/retire`)).status, 404);
  t.is((await agent(elsewhere.key, 'GET', codesPath(a, a.creator_id))).status, 404);
  t.is((await agent(elsewhere.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'z' })).status, 404);
});

test('integration status: sdk_less_attribution from missing to ready, with a next action meanwhile; live unchanged', async (t) => {
  const a = await account();
  const status = async () => {
    const res = await agent(a.key, 'GET', `/apps/${a.app_id}/integration-status`);
    t.is(res.status, 200, res.text);
    return res.body;
  };
  const before = await status();
  t.deepEqual(before.sdk_less_attribution, {
    ready: false,
    missing: ['ios_store_notifications', 'android_store_notifications', 'active_offer_code'],
  });
  t.false(before.live);
  const step = before.next_actions.find((x: { step: string }) => x.step === 'sdk_less_attribution');
  t.like(step, { next_tool: 'svc_setup_subprovider', call: `POST /api/agent/apps/${a.app_id}/setup-subprovider` });
  t.regex(step.action, /one offer per creator/);

  const wired = await sendWebhook(
    h().baseUrl,
    a.app_id,
    a.webhook_secret,
    providerEvent('test', { id: randomUUID(), event_timestamp_ms: Date.now() }),
  );
  t.is(wired.status, 200, wired.text);
  t.deepEqual((await status()).sdk_less_attribution, { ready: false, missing: ['active_offer_code'] });

  const made = await agent(a.key, 'POST', codesPath(a, a.creator_id), { platform: 'ios', value: 'maya' });
  t.is(made.status, 201);
  const ready = await status();
  t.deepEqual(ready.sdk_less_attribution, { ready: true, missing: [] });
  t.false(ready.next_actions.some((x: { step: string }) => x.step === 'sdk_less_attribution'));
  t.false(ready.live, 'the checklist stays as the spec fixes it: no SDK, not live');

  await agent(a.key, 'POST', `/offer-codes/${made.body.id}/retire`);
  t.deepEqual((await status()).sdk_less_attribution, { ready: false, missing: ['active_offer_code'] }, 'a retired code does not count');
});

const callTool = (era: McpEra, token: string, name: string, args: Record<string, unknown>) =>
  callToolInEra(h().baseUrl, era, token, name, args);

for (const era of MCP_ERAS) {
  test(`MCP (${era}): svc_add_offer_code, svc_list_offer_codes, svc_retire_offer_code`, async (t) => {
    const a = await account();
    const ids = { campaign_id: a.campaign_id, creator_id: a.creator_id };
    const added = await callTool(era, a.key, 'svc_add_offer_code', {
      ...ids,
      platform: 'android',
      value: 'creator-tag',
      custom_code: 'TAG1',
    });
    t.falsy(added.isError, JSON.stringify(added));
    t.like(added.structuredContent, { platform: 'android', match: 'offer_tag', redeem_url: 'https://play.google.com/redeem?code=TAG1' });
    const dup = await callTool(era, a.key, 'svc_add_offer_code', { ...ids, platform: 'android', value: 'creator-tag' });
    t.true(dup.isError);
    t.regex(dup.content.map((c) => c.text).join(' '), /409|already has/);
    const listed = await callTool(era, a.key, 'svc_list_offer_codes', ids);
    t.is(listed.structuredContent.count, 1);
    const retired = await callTool(era, a.key, 'svc_retire_offer_code', { offer_code_id: added.structuredContent.id });
    t.is(retired.structuredContent.status, 'retired');
    t.is((await h().db('offer_codes').where('id', added.structuredContent.id).first()).status, 'retired');
  });
}
