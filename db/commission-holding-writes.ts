// The holding period's writes (db/commission-holding.ts says the rule), in the conversion workflow's transaction:
// releasing the earns whose holding period is over, and taking back a refunded earn (lib/take-back.ts decides how).
import type { Knex } from 'knex';
import { pendingRelease } from './commission-holding.js';
import { IN_REVIEW_SQL } from './commission-reviews.js';
import { earnAgain, insertReversalRow, reverseCommission, type TransactionEarn } from './commissions.js';
import { payableDigestItems } from './creator-digests.js';
import { minus, type CommissionMoney } from '../lib/refund-share.js';
import { takeBackOf, type TakeBack } from '../lib/take-back.js';

/**
 * Releases the conversion's reserved earns whose holding period is over (`onlyId`: that one only, as an approval
 * does); returns how many became payable. Each one leaves its creator a digest item in the same statement
 * (db/creator-digests.ts), so the mail cannot miss a release.
 */
export async function releaseDueCommissions(trx: Knex.Transaction, conversionId: string, onlyId?: string): Promise<number> {
  const due = pendingRelease(trx, conversionId)
    .where('status', 'reserved')
    .where('payable_at', '<=', trx.fn.now())
    // Held for review: payable only once a person approves (actions/commission-reviews.ts).
    .whereRaw(`not ${IN_REVIEW_SQL('commissions')}`);
  if (onlyId) void due.where('id', onlyId);
  const released = due.update({ status: 'payable' }).returning(['id', 'creator_id', 'org_id', 'commission_micros']);
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
