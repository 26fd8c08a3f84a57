// Commissions and the wallet movements they cause, always in the caller's transaction: a commission row and its
// reservation are written together or not at all; a reversal releases exactly what its commission reserved.
import type { Knex } from 'knex';
import type { CommissionAmounts } from '../lib/commission.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger.js';
import type { Environment, CommissionRow } from '../schema/types.js';

export interface EarnInput {
  conversion: { id: string; app_id: string; org_id: string; campaign_id: string; creator_id: string; creator_code_id: string | null; environment: Environment };
  purchaseEventId: string;
  amounts: CommissionAmounts;
  commissionPercentage: number | string;
  platformFeePercent: number;
}

/** Earns a commission; in production reserves commission + fee when the wallet's safe balance covers it. */
export async function earnCommission(trx: Knex.Transaction, e: EarnInput): Promise<{ commission: CommissionRow; funded: boolean }> {
  const c = e.conversion;
  const production = c.environment === 'PRODUCTION';
  let funded = true;
  if (production) {
    // The wallet lock serialises reservations per organization; the totals read under it are current.
    funded = (await lockOrganization(trx, c.org_id)).safeAvailableMicros >= e.amounts.reserveMicros;
  }
  const status = !production ? 'simulated' : funded ? 'reserved' : 'unfunded';
  const [commission] = await trx('commissions').insert({
    conversion_id: c.id, purchase_event_id: e.purchaseEventId, app_id: c.app_id, org_id: c.org_id, campaign_id: c.campaign_id,
    creator_id: c.creator_id, creator_code_id: c.creator_code_id, kind: 'earn', environment: c.environment,
    revenue_usd_micros: e.amounts.revenueMicros, commission_micros: e.amounts.commissionMicros, platform_fee_micros: e.amounts.platformFeeMicros,
    commission_percentage: e.commissionPercentage, platform_fee_percentage: e.platformFeePercent, status,
  }).returning<CommissionRow[]>('*');
  if (status === 'reserved' && e.amounts.reserveMicros > 0) {
    await appendLedgerEntry(trx, {
      orgId: c.org_id, entryType: 'reserve', balanceDeltaMicros: 0, reservedDeltaMicros: e.amounts.reserveMicros,
      idempotencyKey: `reserve:${commission!.id}`, commissionId: commission!.id, memo: 'commission + platform fee', createdBy: 'conversion',
    });
  }
  return { commission: commission!, funded };
}

/**
 * The earn commission a refund takes back: the refunded transaction's (none when it was reversed already: a refund
 * reported twice takes nothing else), else, when no commission belongs to that transaction, the latest unreversed.
 */
export async function findCommissionToReverse(trx: Knex.Transaction, conversionId: string, transactionId: string | null): Promise<CommissionRow | undefined> {
  const earns = () => trx('commissions as c').join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where({ 'c.conversion_id': conversionId, 'c.kind': 'earn' }).orderBy('c.created_at', 'desc').forUpdate('c');
  if (transactionId) {
    const ofTransaction = await earns().where('p.transaction_id', transactionId).select<CommissionRow[]>('c.*');
    if (ofTransaction.length > 0) return ofTransaction.find((c) => c.reversed_at === null);
  }
  return earns().whereNull('c.reversed_at').first<CommissionRow | undefined>('c.*');
}

/**
 * Reverses a commission: a negative mirror row, the original marked reversed (a sandbox original stays 'simulated',
 * only reversed_at marks it), its reservation released.
 */
export async function reverseCommission(trx: Knex.Transaction, original: CommissionRow, refundEventId: string): Promise<CommissionRow> {
  const [reversal] = await trx('commissions').insert({
    conversion_id: original.conversion_id, purchase_event_id: refundEventId, app_id: original.app_id, org_id: original.org_id,
    campaign_id: original.campaign_id, creator_id: original.creator_id, creator_code_id: original.creator_code_id,
    kind: 'reversal', reverses_commission_id: original.id, environment: original.environment,
    revenue_usd_micros: -original.revenue_usd_micros, commission_micros: -original.commission_micros, platform_fee_micros: -original.platform_fee_micros,
    commission_percentage: original.commission_percentage, platform_fee_percentage: original.platform_fee_percentage,
    status: original.environment === 'PRODUCTION' ? 'reversed' : 'simulated',
  }).returning<CommissionRow[]>('*');
  const status = original.environment === 'PRODUCTION' ? 'reversed' : original.status;
  await trx('commissions').where('id', original.id).update({ status, reversed_at: trx.fn.now() });
  const reserved = original.commission_micros + original.platform_fee_micros;
  if (original.status === 'reserved' && reserved > 0) {
    await appendLedgerEntry(trx, {
      orgId: original.org_id, entryType: 'reversal', balanceDeltaMicros: 0, reservedDeltaMicros: -reserved,
      idempotencyKey: `reverse:${original.id}`, commissionId: original.id, memo: 'refund', createdBy: 'conversion',
    });
  }
  return reversal!;
}

/** The latest commission this conversion reversed (REFUND_REVERSED restores it). */
export async function findLastReversed(trx: Knex.Transaction, conversionId: string): Promise<CommissionRow | undefined> {
  return trx('commissions').where({ conversion_id: conversionId, kind: 'earn' }).whereNotNull('reversed_at')
    .orderBy('reversed_at', 'desc').first<CommissionRow | undefined>();
}
