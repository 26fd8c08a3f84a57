// Milestone bonuses and money: approving an award reserves its amount only while the wallet's safe balance covers
// it (else 402 naming the top-up-link endpoint, nothing written); a refund that takes a counted conversion back
// voids an award still `earned` and flags one already `approved` for review, with the reason recorded.
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { creatorOwedByOrg } from '../../db/creator-owed.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test);
test.before(async () => {
  await h.ready();
});

const BONUS = 20_000_000;
const agent = (token: string, method: string, path: string, body?: unknown) =>
  request(h().baseUrl, method, `/api/agent${path}`, { token, body });

async function withRule(app: SeededApp, threshold: number, bonusMicros = BONUS): Promise<void> {
  await h()
    .db('bonus_rules')
    .insert({ campaign_id: app.campaign_id, name: `Reach ${threshold}`, threshold_conversions: threshold, bonus_micros: bonusMicros });
}

async function buy(app: SeededApp, user: string): Promise<{ transactionId: string; send: ReturnType<typeof subscription> }> {
  const send = subscription(user, app.creator_code);
  const initial = send('initial_purchase');
  const res = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, initial);
  if (res.status !== 200 || res.body.error) throw new Error(res.text);
  return { transactionId: initial.event.transaction_id as string, send };
}

async function refund(app: SeededApp, bought: { transactionId: string; send: ReturnType<typeof subscription> }): Promise<void> {
  const res = await sendWebhook(
    h().baseUrl,
    app.app_id,
    app.webhook_secret,
    bought.send('refund', { transaction_id: bought.transactionId }),
  );
  if (res.status !== 200) throw new Error(res.text);
}

const awardOf = (app: SeededApp) => h().db('bonus_awards').where({ campaign_id: app.campaign_id, creator_id: app.creator_id }).first();

test('approving an award the safe balance cannot cover is 402 naming the top-up link; nothing is reserved', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 20 });
  await withRule(app, 1, 50_000_000);
  await buy(app, `bonus-poor-${Date.now()}`);
  const award = await awardOf(app);
  t.is(award.status, 'earned');
  const before = await getWalletTotals(h().db, app.org_id);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: ['creators:write', 'creators:read'] });
  const res = await agent(key.key, 'POST', `/bonus-awards/${award.id}/review`, { decision: 'approve' });
  t.is(res.status, 402, res.text);
  t.regex(res.body.detail, /POST \/api\/agent\/wallet\/topup-link/);
  t.regex(res.body.detail, /\$50\.00 USD/);
  t.is((await awardOf(app)).status, 'earned');
  t.deepEqual(await getWalletTotals(h().db, app.org_id), before);
  t.is((await h().db('wallet_ledger').where({ bonus_award_id: award.id })).length, 0);
  await assertExactBooks(t, h().db, app.org_id);
});

test('a refund that drops progress below the threshold voids an earned award, with the reason', async (t) => {
  const app = await seedApp(h().db);
  await withRule(app, 1);
  const bought = await buy(app, `bonus-void-${Date.now()}`);
  t.like(await awardOf(app), { status: 'earned', progress_count: 1 });
  await refund(app, bought);
  const award = await awardOf(app);
  t.like(award, { status: 'voided', reviewed_by: 'system', progress_count: 0 });
  t.regex(award.review_note, /voided automatically: conversion \S+ refunded/);
  t.is(award.fraud_flags.refunds.length, 1);
  t.is(award.fraud_flags.refunds[0].progress, 0);
  await assertExactBooks(t, h().db, app.org_id);
});

test('a refund under an approved award flags it for review and keeps its reservation; an award still reached is untouched', async (t) => {
  const app = await seedApp(h().db);
  await withRule(app, 1);
  await withRule(app, 2, 5_000_000);
  const first = await buy(app, `bonus-flag-a-${Date.now()}`);
  await buy(app, `bonus-flag-b-${Date.now()}`);
  const awards = await h().db('bonus_awards').where({ campaign_id: app.campaign_id }).orderBy('threshold_conversions').select('*');
  t.deepEqual(
    awards.map((a) => [a.threshold_conversions, a.status]),
    [
      [1, 'earned'],
      [2, 'earned'],
    ],
  );
  const key = await createAgentKey(h().db, {
    orgId: app.org_id,
    name: 'test',
    scopes: ['creators:write', 'creators:read', 'billing:read'],
  });
  for (const a of awards) t.is((await agent(key.key, 'POST', `/bonus-awards/${a.id}/review`, { decision: 'approve' })).status, 200);
  const reservedBefore = (await getWalletTotals(h().db, app.org_id)).reservedMicros;
  // Approved awards are payable now beside the commissions (the wallet's "Payable now" counts them).
  const payableAwards = async () => (await agent(key.key, 'GET', '/wallet')).body.bonus_awards_payable;
  t.like(await payableAwards(), { count: 2, amount_micros: BONUS + 5_000_000 });

  await refund(app, first);
  t.like(await payableAwards(), { count: 1, amount_micros: BONUS }, 'an award flagged by a refund waits for its reviewer');
  // The creator's own figure (the portal's owed card) follows the same rule (db/bonus-awards.ts payableAwards).
  const [owed] = await creatorOwedByOrg(h().db, app.creator_id);
  t.is(owed?.payable_micros, BONUS, "the portal's payable leaves out the award waiting for its reviewer");
  const after = await h().db('bonus_awards').where({ campaign_id: app.campaign_id }).orderBy('threshold_conversions').select('*');
  t.is(after[0].status, 'approved', 'one conversion still counts: the first milestone stays reached');
  t.deepEqual(after[0].fraud_flags, {});
  t.is(after[1].status, 'approved', "an approved award is not voided behind the reviewer's back");
  t.is(after[1].fraud_flags.refunds.length, 1);
  t.regex(after[1].fraud_flags.refunds[0].reason, /progress 1 is below the threshold 2/);
  const commissionReserve = 3_000_000 + 300_000;
  t.is(
    (await getWalletTotals(h().db, app.org_id)).reservedMicros,
    reservedBefore - commissionReserve,
    'only the refunded commission is released',
  );
  await assertExactBooks(t, h().db, app.org_id);
});
