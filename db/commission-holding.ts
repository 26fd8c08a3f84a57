// The holding period of production commissions (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): an earn stays
// `reserved` until its `payable_at`, when its conversion's workflow (the single writer of the conversion) releases
// it as `payable`. A refund decides by the commission's state: still `reserved` (or `unfunded`) is reversed as
// before; `payable` or `paid` stays as it is and becomes a clawback, the creator's negative balance that the next
// payout nets. These are the reads; releasing and taking back are db/commission-holding-writes.ts.
import type { Knex } from 'knex';
import type { CommissionRow } from '../schema/types.js';
import { IN_REVIEW_SQL } from './commission-reviews.js';

/** The earns of a conversion still waiting for their release (unreversed production `reserved`/`unfunded`). */
export function pendingRelease(trx: Knex | Knex.Transaction, conversionId: string) {
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
  const row = await pendingRelease(trx, conversionId).first<{ next: string | null } | undefined>(nextReleaseExpression(trx, dayMs, 'next'));
  return releaseAtOf(row?.next);
}

// A held commission (review_state 'held') past its date waits for a person, not for a time: it sets no release (its
// approval makes it payable at once). Before its date its release stays set, so an approval in time needs nothing more.
const nextReleaseExpression = (trx: Knex | Knex.Transaction, dayMs: number, as: string) =>
  trx.raw(
    `extract(epoch from min(case when ${IN_REVIEW_SQL('commissions')} and status = 'reserved' and payable_at <= now() then null ` +
      `when status = 'unfunded' and payable_at <= now() then now() + ? * interval '1 millisecond' else payable_at end)) * 1000 as ??`,
    [dayMs, as],
  );

/**
 * The same answer as a scalar subquery named `as`, for a statement the caller sends anyway (the event's outcome
 * update returns it): one round trip fewer per event.
 */
export function nextReleaseAtColumn(trx: Knex | Knex.Transaction, conversionId: string, dayMs: number, as: string): Knex.Raw {
  const sub = pendingRelease(trx, conversionId)
    .select(nextReleaseExpression(trx, dayMs, 'next'))
    .toSQL();
  return trx.raw(`(${sub.sql}) as ??`, [...sub.bindings, as]);
}

export const releaseAtOf = (next: string | number | null | undefined): number | null => (next == null ? null : Math.ceil(Number(next)));

export interface HeldCommission {
  id: string;
  commission_micros: number;
  platform_fee_micros: number;
  payable_at: Date;
  status: string;
  /** 'held': held for review, payable only once a person approves (the date is then the earliest). */
  review_state: string | null;
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
      'c.review_state',
      'k.name as campaign_name',
    );
}

/**
 * The conversion's earns due for release that no person has decided on (no review, or a flag only), with their
 * campaign's signal settings: the release step evaluates their fraud signals once more before they become payable.
 */
export async function dueForSignalCheck(
  trx: Knex.Transaction,
  conversionId: string,
): Promise<(CommissionRow & { fraud_signal_actions: Record<string, string> })[]> {
  return pendingRelease(trx, conversionId)
    .where('status', 'reserved')
    .where('payable_at', '<=', trx.fn.now())
    .whereRaw("(review_state is null or review_state = 'flagged')")
    .select('*', trx.raw('(select k.fraud_signal_actions from campaigns k where k.id = commissions.campaign_id) as fraud_signal_actions'));
}
