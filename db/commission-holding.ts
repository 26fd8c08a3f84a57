// The holding period of production commissions (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): an earn stays
// `reserved` until its `payable_at`, when its conversion's workflow (the single writer of the conversion) releases
// it as `payable`. A refund decides by the commission's state: still `reserved` (or `unfunded`) is reversed as
// before; `payable` or `paid` stays as it is and becomes a clawback, the creator's negative balance that the next
// payout nets.
import type { Knex } from 'knex';
import { earnAgain, insertReversalRow, reverseCommission, type TransactionEarn } from './commissions.js';
import { payableDigestItems } from './creator-digests.js';
import { minus, type CommissionMoney } from '../lib/refund-share.js';
import { takeBackOf, type TakeBack } from '../lib/take-back.js';

/** The earns of a conversion still waiting for their release (unreversed production `reserved`/`unfunded`). */
function pending(trx: Knex | Knex.Transaction, conversionId: string) {
  return trx('commissions')
    .where({ conversion_id: conversionId, kind: 'earn', environment: 'PRODUCTION' })
    .whereIn('status', ['reserved', 'unfunded'])
    .whereNull('reversed_at')
    .whereNotNull('payable_at');
}

/**
 * When the conversion's workflow must next release (epoch ms), or null when nothing waits. An `unfunded` earn past
 * its date cannot be released until a top-up funds it: it is looked at again one holding-period day later.
 */
export async function nextReleaseAt(trx: Knex | Knex.Transaction, conversionId: string, dayMs: number): Promise<number | null> {
  const row = await pending(trx, conversionId).first<{ next: string | null } | undefined>(nextReleaseExpression(trx, dayMs, 'next'));
  return releaseAtOf(row?.next);
}

const nextReleaseExpression = (trx: Knex | Knex.Transaction, dayMs: number, as: string) =>
  trx.raw(
    `extract(epoch from min(case when status = 'unfunded' and payable_at <= now() then now() + ? * interval '1 millisecond' else payable_at end)) * 1000 as ??`,
    [dayMs, as],
  );

/**
 * The same answer as a scalar subquery named `as`, for a statement the caller sends anyway (the event's outcome
 * update returns it): one round trip fewer per event.
 */
export function nextReleaseAtColumn(trx: Knex | Knex.Transaction, conversionId: string, dayMs: number, as: string): Knex.Raw {
  const sub = pending(trx, conversionId)
    .select(nextReleaseExpression(trx, dayMs, 'next'))
    .toSQL();
  return trx.raw(`(${sub.sql}) as ??`, [...sub.bindings, as]);
}

export const releaseAtOf = (next: string | number | null | undefined): number | null => (next == null ? null : Math.ceil(Number(next)));

/**
 * Releases the conversion's reserved earns whose holding period is over; returns how many became payable. Each one
 * leaves its creator a digest item in the same statement (db/creator-digests.ts), so the mail cannot miss a release.
 */
export async function releaseDueCommissions(trx: Knex.Transaction, conversionId: string): Promise<number> {
  const released = pending(trx, conversionId)
    .where('status', 'reserved')
    .where('payable_at', '<=', trx.fn.now())
    .update({ status: 'payable' })
    .returning(['id', 'creator_id', 'org_id', 'commission_micros']);
  return payableDigestItems(trx, released);
}

/**
 * Takes back a refunded earn, or the `part` of what stands of it that a partial refund names
 * (lib/refund-share.ts planTakeBack). Within its holding period (`reserved`, `unfunded`, sandbox) it is reversed and
 * its reservation released; a part leaves a remainder: a new earn of what stands less the part, on the refund event,
 * with the earn's date and release (`reduced`), reserved out of the reservation just released. Once released
 * (`payable` or `paid`) it keeps its state and gets a reversal row of what is taken, and the creator owes that
 * commission back: a clawback (the platform fee is not returned); `reversed_at` once nothing of it stands.
 */
export async function takeBackCommission(
  trx: Knex.Transaction,
  original: TransactionEarn,
  refundEventId: string,
  take: { part: CommissionMoney; whole: boolean } = { part: original.live, whole: true },
): Promise<TakeBack> {
  const how = takeBackOf(original.status, take.whole);
  if (how !== 'clawback') {
    await reverseCommission(trx, original, refundEventId);
    if (how === 'reversed') return how;
    const holdMs = original.payable_at ? new Date(original.payable_at).getTime() - new Date(original.created_at).getTime() : 0;
    await earnAgain(trx, original, minus(original.live, take.part), refundEventId, holdMs, new Date(original.created_at));
    return 'reduced';
  }
  await insertReversalRow(trx, original, refundEventId, take.part);
  if (take.whole) await trx('commissions').where('id', original.id).update({ reversed_at: trx.fn.now() });
  if (take.part.commissionMicros > 0) {
    await trx('clawbacks')
      .insert({
        org_id: original.org_id,
        creator_id: original.creator_id,
        commission_id: original.id,
        refund_event_id: refundEventId,
        amount_micros: take.part.commissionMicros,
      })
      .onConflict(['commission_id', 'refund_event_id'])
      .ignore();
  }
  return 'clawback';
}

export interface HeldCommission {
  id: string;
  commission_micros: number;
  platform_fee_micros: number;
  payable_at: Date;
  status: string;
  campaign_name: string;
}

/** An organization's production earns still in their holding period, soonest release first (the wallet page). */
export async function listHeldCommissions(db: Knex, orgId: string, limit = 20): Promise<HeldCommission[]> {
  return db('commissions as c')
    .join('campaigns as k', 'k.id', 'c.campaign_id')
    .where({ 'c.org_id': orgId, 'c.kind': 'earn', 'c.environment': 'PRODUCTION' })
    .whereIn('c.status', ['reserved', 'unfunded'])
    .whereNull('c.reversed_at')
    .whereNotNull('c.payable_at')
    .orderBy('c.payable_at')
    .limit(limit)
    .select<HeldCommission[]>(
      'c.id',
      'c.commission_micros',
      'c.platform_fee_micros',
      'c.payable_at',
      'c.status',
      'k.name as campaign_name',
    );
}
