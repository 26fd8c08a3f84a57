// Payout runs, phase 2's writes (docs/wallet-and-payouts.md "Two phases"), in the caller's transaction
// (actions/payout-transfers.ts): the transfer recorded once, and a payout returned: refused by the provider (no ready account,
// insufficient funds) or reversed by Stripe (`transfer.reversed`). Returning is done under the
// organization lock: its commissions go back to `payable` and its awards to `approved` with `payout_return` entries
// giving back what its `payout` entries took (balance and reservation), the clawbacks it netted are owed again (a
// `payout_return` entry takes that money back out), and the payout is `returned`. It happens at most once per payout.
import type { Knex } from 'knex';
import { addPayoutDigestItem } from './creator-digests.js';
import type { PayoutProviderName, PayoutRow } from '../schema/types.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger-writes.js';

/**
 * The transfer made for a pending payout; answers whether this call recorded it (a repeat records nothing). The
 * creator's "payout sent" digest item is written with it: they hear of a payout once its money moved.
 */
export async function recordTransfer(
  trx: Knex.Transaction,
  payoutId: string,
  provider: PayoutProviderName,
  transferId: string,
): Promise<boolean> {
  const [row] = await trx('payouts')
    .where({ id: payoutId, transfer_status: 'transfer_pending' })
    .update({ transfer_status: 'transferred', transfer_id: transferId, transfer_provider: provider, transferred_at: trx.fn.now() }, '*');
  if (row) await sentItem(trx, row as PayoutRow);
  return Boolean(row);
}

/** A pending payout with nothing to send (its clawbacks netted the whole gross; phase 1 settles new ones itself). */
export async function settlePayout(trx: Knex.Transaction, payoutId: string): Promise<boolean> {
  const [row] = await trx('payouts')
    .where({ id: payoutId, transfer_status: 'transfer_pending', net_micros: 0 })
    .update({ transfer_status: 'settled' }, '*');
  if (row) await sentItem(trx, row as PayoutRow);
  return Boolean(row);
}

const sentItem = (trx: Knex.Transaction, p: PayoutRow) =>
  addPayoutDigestItem(trx, {
    creatorId: p.creator_id,
    orgId: p.org_id,
    payoutId: p.id,
    kind: 'payout_sent',
    amountMicros: Number(p.net_micros),
  });

/** Returns a pending or transferred payout's lines to payable; answers whether this call returned it. */
export async function returnPayout(trx: Knex.Transaction, payoutId: string, reason: string): Promise<boolean> {
  const head = await trx('payouts').where('id', payoutId).first<{ org_id: string } | undefined>('org_id');
  if (!head) return false;
  await lockOrganization(trx, head.org_id);
  const payout = await trx('payouts').where('id', payoutId).forUpdate().first<PayoutRow>();
  if (payout.transfer_status !== 'transfer_pending' && payout.transfer_status !== 'transferred') return false;
  const createdBy = `payout-return:${payoutId}`;
  const commissions: { id: string; commission_micros: number; platform_fee_micros: number }[] = await trx('commissions')
    .where('payout_id', payoutId)
    .update({ status: 'payable', paid_at: null, payout_id: null }, ['id', 'commission_micros', 'platform_fee_micros']);
  for (const c of commissions) {
    const micros = Number(c.commission_micros) + Number(c.platform_fee_micros);
    if (micros === 0) continue;
    await appendLedgerEntry(trx, {
      orgId: payout.org_id,
      entryType: 'payout_return',
      balanceDeltaMicros: micros,
      reservedDeltaMicros: micros,
      idempotencyKey: `payout-return:${payoutId}:${c.id}`,
      commissionId: c.id,
      externalRef: payoutId,
      memo: `payout returned (${reason}): commission payable again`,
      createdBy,
    });
  }
  const awards: { id: string; amount_micros: number }[] = await trx('bonus_awards')
    .where('payout_id', payoutId)
    .update({ status: 'approved', paid_at: null, payout_id: null }, ['id', 'amount_micros']);
  for (const a of awards) {
    if (Number(a.amount_micros) === 0) continue;
    await appendLedgerEntry(trx, {
      orgId: payout.org_id,
      entryType: 'payout_return',
      balanceDeltaMicros: Number(a.amount_micros),
      reservedDeltaMicros: Number(a.amount_micros),
      idempotencyKey: `payout-return:${payoutId}:bonus:${a.id}`,
      bonusAwardId: a.id,
      externalRef: payoutId,
      memo: `payout returned (${reason}): bonus award payable again`,
      createdBy,
    });
  }
  const recoveries = await trx('payout_clawback_recoveries')
    .where('payout_id', payoutId)
    .select<{ clawback_id: string; micros: string }[]>('clawback_id', 'micros');
  for (const r of recoveries) await trx('clawbacks').where('id', r.clawback_id).decrement('recovered_micros', Number(r.micros));
  if (Number(payout.clawbacks_netted_micros) > 0) {
    await appendLedgerEntry(trx, {
      orgId: payout.org_id,
      entryType: 'payout_return',
      balanceDeltaMicros: -Number(payout.clawbacks_netted_micros),
      reservedDeltaMicros: 0,
      idempotencyKey: `payout-return:${payoutId}:clawbacks`,
      externalRef: payoutId,
      memo: `payout returned (${reason}): the clawbacks it netted are owed again`,
      createdBy,
    });
  }
  await trx('payouts').where('id', payoutId).update({ transfer_status: 'returned', failure: reason, returned_at: trx.fn.now() });
  // The creator hears of it in their next digest (db/creator-digests.ts), written with the return itself: returned
  // before any transfer (they were never told it was sent), or reversed after one (they were: a distinct item).
  await addPayoutDigestItem(trx, {
    creatorId: payout.creator_id,
    orgId: payout.org_id,
    payoutId,
    kind: payout.transfer_status === 'transferred' ? 'payout_reversed' : 'payout_failed',
    amountMicros: Number(payout.net_micros),
  });
  return true;
}
