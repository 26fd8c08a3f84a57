// Reviews of suspicious commissions through the agent API over real HTTP (CONTRACT.md "Review of suspicious
// commissions"): purchases whose provider `$email` is the creator's own are held by the real pipeline; GET /reviews
// lists them with their evidence in words (filters, 422 naming the field, another organization's app 404);
// POST /reviews/{id}/review approves (a repeat answers the first, void after it 409) or voids (the reservation
// released once); 404 for an unknown or foreign review, 422 for a bad body, 403 without creators:write; both MCP
// tools in both protocol eras. The books stay exact throughout.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { REVIEW_NOTE_MAX } from '../../actions/commission-reviews.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES, type Scope } from '../../lib/scopes.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { callToolInEra, MCP_ERAS } from '../helpers/mcp.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test);
test.before(async () => {
  await h.ready();
});

type Account = SeededApp & { key: string; keyId: string; email: string };

const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });
const fieldsOf = (body: { detail: { loc: string[] }[] }) => body.detail.map((p) => p.loc.at(-1));

async function account(scopes: readonly Scope[] = SCOPES): Promise<Account> {
  const app = await seedApp(h().db);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes });
  const { email } = await h().db('creators').where('id', app.creator_id).first('email');
  return { ...app, key: key.key, keyId: key.id, email };
}

/** A production purchase through the creator's code; `email`: the provider's `$email` subscriber attribute. */
async function buy(a: SeededApp, email: string): Promise<void> {
  const send = subscription(`rev-${randomBytes(4).toString('hex')}`, a.creator_code);
  const event = send('initial_purchase');
  event.event.subscriber_attributes.$email.value = email;
  const res = await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, event);
  if (res.status !== 200 || res.body.error) throw new Error(res.text);
}

/** The creator's own address as a purchaser would type it: other case and another +tag (normalised the same). */
const ownAddress = (email: string) => email.replace(/\+[^@]*@/, '+shop@').toUpperCase();

async function heldAccount(purchases: number): Promise<Account> {
  const a = await account();
  for (let i = 0; i < purchases; i += 1) await buy(a, ownAddress(a.email));
  return a;
}

test('GET /reviews lists held self-referrals with evidence in words; filters; approve, repeat, 409; void releases once', async (t) => {
  const a = await heldAccount(2);
  await buy(a, `someone-${randomBytes(3).toString('hex')}@example.org`); // a clean purchase: never reviewed
  const other = await heldAccount(1);

  const open = await agent(a.key, 'GET', '/reviews?status=open');
  t.is(open.status, 200, open.text);
  t.is(open.body.reviews.length, 2);
  const [first, second] = open.body.reviews;
  t.like(first, {
    creator_id: a.creator_id,
    campaign_id: a.campaign_id,
    app_id: a.app_id,
    status: 'open',
    action: 'hold',
    commission_status: 'reserved',
    review_state: 'held',
    decided_at: null,
  });
  t.regex(first.id, /^rev_/);
  t.true(first.amount_micros > 0);
  t.is(first.amount_usd, first.amount_micros / 1_000_000);
  t.deepEqual(Object.keys(first.signals[0]).sort(), ['evidence', 'signal']);
  t.is(first.signals[0].signal, 'self_referral');
  t.regex(first.signals[0].evidence, /email .* is the creator's own address/);
  for (const secret of [a.webhook_secret, a.creator_code, a.key]) t.false(open.text.includes(secret), 'no secret in the answer');
  const held = await h().db('commissions').where('id', first.commission_id).first();
  t.like(held, { status: 'reserved', review_state: 'held' });

  t.is((await agent(a.key, 'GET', '/reviews?signal=self_referral')).body.reviews.length, 2);
  t.is((await agent(a.key, 'GET', '/reviews?signal=install_farm')).body.reviews.length, 0);
  t.deepEqual((await agent(a.key, 'GET', '/reviews?limit=1')).body.reviews, [first], 'newest first, capped');
  t.is((await agent(a.key, 'GET', `/reviews?creator_id=${a.creator_id}&app_id=${a.app_id}&action=hold`)).body.count, 2);
  t.is((await agent(a.key, 'GET', `/reviews?creator_id=${other.creator_id}`)).body.count, 0, "another organization's reviews never show");
  t.is((await agent(a.key, 'GET', `/reviews?app_id=${other.app_id}`)).status, 404);
  const bad = await agent(a.key, 'GET', '/reviews?status=pending&signal=fishy');
  t.is(bad.status, 422);
  t.deepEqual(fieldsOf(bad.body).sort(), ['signal', 'status']);

  const approved = await agent(a.key, 'POST', `/reviews/${first.id}/review`, { decision: 'approve', note: 'my cousin, real customer' });
  t.is(approved.status, 200, approved.text);
  t.like(approved.body, {
    id: first.id,
    status: 'approved',
    review_state: 'approved',
    note: 'my cousin, real customer',
    decided_by: `agent_key:${a.keyId}`,
  });
  t.truthy(approved.body.decided_at);
  const repeat = await agent(a.key, 'POST', `/reviews/${first.id}/review`, { decision: 'approve', note: 'again' });
  t.is(repeat.status, 200);
  t.deepEqual(repeat.body, approved.body, 'a repeat answers the first decision');
  const late = await agent(a.key, 'POST', `/reviews/${first.id}/review`, { decision: 'void' });
  t.is(late.status, 409);
  t.regex(late.body.detail, /already approved/);

  const reservedBefore = (await agent(a.key, 'GET', '/wallet')).body.reserved_micros as number;
  const voided = await agent(a.key, 'POST', `/reviews/${second.id}/review`, { decision: 'void' });
  t.is(voided.status, 200, voided.text);
  t.like(voided.body, { status: 'voided', review_state: 'voided', commission_status: 'reversed', note: null });
  t.deepEqual((await agent(a.key, 'POST', `/reviews/${second.id}/review`, { decision: 'void' })).body, voided.body);
  t.is((await agent(a.key, 'POST', `/reviews/${second.id}/review`, { decision: 'approve' })).status, 409);
  const ledger = await h().db('wallet_ledger').where('commission_id', second.commission_id).select('reserved_delta_micros');
  const reserved = ledger.map((l) => Number(l.reserved_delta_micros)).filter((d) => d > 0);
  t.is(reserved.length, 1);
  t.is(ledger.filter((l) => Number(l.reserved_delta_micros) < 0).length, 1, 'released once');
  t.is(
    ledger.reduce((sum, l) => sum + Number(l.reserved_delta_micros), 0),
    0,
  );
  t.is((await agent(a.key, 'GET', '/wallet')).body.reserved_micros, reservedBefore - reserved[0]!, 'the wallet shows it released');

  const ids = async (q: string) => (await agent(a.key, 'GET', `/reviews${q}`)).body.reviews.map((r: { id: string }) => r.id);
  t.deepEqual(await ids('?status=approved'), [first.id]);
  t.deepEqual(await ids('?status=voided'), [second.id]);
  t.deepEqual((await ids('')).sort(), [first.id, second.id].sort(), 'no status: every review');

  const audit = await h().db('audit_log').where({ org_id: a.org_id }).whereLike('action', '%review%').select('action', 'actor_id');
  t.deepEqual(
    audit.map((r) => r.action).sort(),
    ['commission_review.approved', 'commission_review.voided', ...Array(4).fill('svc_review_commission')],
    'each decision once in its words; every 200 call by the route',
  );
  t.true(audit.every((r) => r.actor_id === a.keyId));
  await assertExactBooks(t, h().db, a.org_id);
  await assertExactBooks(t, h().db, other.org_id);
});

test('POST /reviews/{id}/review: 404 unknown or foreign, 422 naming decision and note, 403 without creators:write', async (t) => {
  const a = await heldAccount(1);
  const other = await heldAccount(1);
  const [review] = (await agent(a.key, 'GET', '/reviews')).body.reviews;
  const [foreign] = (await agent(other.key, 'GET', '/reviews')).body.reviews;

  t.is((await agent(a.key, 'POST', '/reviews/rev_nope/review', { decision: 'approve' })).status, 404);
  const notMine = await agent(a.key, 'POST', `/reviews/${foreign.id}/review`, { decision: 'void' });
  t.is(notMine.status, 404);
  t.regex(notMine.body.detail, /not found/i);
  t.is((await h().db('commission_reviews').where('id', foreign.id).first()).status, 'open');

  const bad = await agent(a.key, 'POST', `/reviews/${review.id}/review`, { decision: 'maybe', note: 'x'.repeat(REVIEW_NOTE_MAX + 1) });
  t.is(bad.status, 422);
  t.deepEqual(fieldsOf(bad.body).sort(), ['decision', 'note']);
  t.is((await agent(a.key, 'POST', `/reviews/${review.id}/review`, {})).status, 422);

  const readOnly = await createAgentKey(h().db, { orgId: a.org_id, name: 'ro', scopes: ['creators:read'] });
  t.is((await agent(readOnly.key, 'GET', '/reviews')).status, 200);
  const denied = await agent(readOnly.key, 'POST', `/reviews/${review.id}/review`, { decision: 'approve' });
  t.is(denied.status, 403);
  t.regex(denied.body.detail, /creators:write/);
  const narrow = await createAgentKey(h().db, { orgId: a.org_id, name: 'narrow', scopes: ['apps:read'] });
  t.regex((await agent(narrow.key, 'GET', '/reviews')).body.detail, /creators:read/);
  t.is((await h().db('commission_reviews').where('id', review.id).first()).status, 'open');
});

for (const era of MCP_ERAS) {
  test(`MCP (${era}): svc_list_reviews and svc_review_commission`, async (t) => {
    const a = await heldAccount(1);
    const call = (name: string, args: Record<string, unknown>) => callToolInEra(h().baseUrl, era, a.key, name, args);
    const listed = await call('svc_list_reviews', { status: 'open', signal: 'self_referral' });
    t.falsy(listed.isError, JSON.stringify(listed));
    t.is(listed.structuredContent.count, 1);
    const review = listed.structuredContent.reviews[0];
    t.like(review, { status: 'open', action: 'hold', signals: [{ signal: 'self_referral' }] });
    const voided = await call('svc_review_commission', { review_id: review.id, decision: 'void', note: 'own purchase' });
    t.falsy(voided.isError, JSON.stringify(voided));
    t.like(voided.structuredContent, { id: review.id, status: 'voided', note: 'own purchase' });
    const refused = await call('svc_review_commission', { review_id: review.id, decision: 'approve' });
    t.true(refused.isError);
    t.regex(refused.content.map((c) => c.text).join(' '), /409|already voided/);
    const badSignal = await call('svc_list_reviews', { signal: 'nope' });
    t.true(badSignal.isError);
    t.regex(badSignal.content.map((c) => c.text).join(' '), /signal/);
    await assertExactBooks(t, h().db, a.org_id);
  });
}
