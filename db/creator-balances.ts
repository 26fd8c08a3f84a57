// The creators' side of an organization's wallet (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"), read-only for the
// wallet views: production earns by state and the clawbacks creators still owe back.
import type { Knex } from 'knex';
import { payableAwards } from './bonus-awards.js';
import { IN_REVIEW_SQL } from './commission-reviews.js';

export interface CommissionStateTotals {
  count: number;
  micros: number;
}
export interface CreatorMoneySummary {
  /**
   * Production earns by state: held (`reserved`, in the holding period), `unfunded`, `payable`, `paid`; commission amounts without fees.
   * `under_review`: held by a review for a person's decision (reserved or unfunded, review_state 'held'), counted there
   * and not in held or unfunded: its holding date says nothing until the decision (docs/fraud-signals.md).
   */
  commissions: Record<'held' | 'under_review' | 'unfunded' | 'payable' | 'paid', CommissionStateTotals>;
  /** What creators still owe back (clawbacks not yet netted from a payout). */
  clawbacksOutstanding: CommissionStateTotals;
  /** Approved bonus awards the next payout run may pay (db/bonus-awards.ts payableAwards): payable beside the commissions. */
  awardsPayable: CommissionStateTotals;
}

/** What the next payout run may pay: payable commissions and payable bonus awards together. */
export function payableNow(summary: CreatorMoneySummary): CommissionStateTotals {
  const c = summary.commissions.payable;
  return { count: c.count + summary.awardsPayable.count, micros: c.micros + summary.awardsPayable.micros };
}

/** The creators' side of an organization's wallet, for the wallet views (GET /wallet); the dashboard's creator page reads one creator's. */
export async function getCreatorMoneySummary(db: Knex, orgId: string, filter: { creatorId?: string } = {}): Promise<CreatorMoneySummary> {
  const ofCreator = (q: Knex.QueryBuilder) => (filter.creatorId ? q.where('creator_id', filter.creatorId) : q);
  const [states, clawbacks, awards] = await Promise.all([
    ofCreator(db('commissions as c').where({ org_id: orgId, kind: 'earn', environment: 'PRODUCTION' }))
      .whereIn('status', ['reserved', 'unfunded', 'payable', 'paid'])
      .groupBy('state')
      .select<{ state: string; count: string; micros: string }[]>(
        db.raw(`case when ${IN_REVIEW_SQL('c')} then 'under_review' else c.status end as state`),
        db.raw('count(*) as count'),
        db.raw('coalesce(sum(commission_micros), 0) as micros'),
      ),
    ofCreator(db('clawbacks').where('org_id', orgId))
      .whereRaw('recovered_micros < amount_micros')
      .first<{ count: string; micros: string | null }>(
        db.raw('count(*) as count'),
        db.raw('sum(amount_micros - recovered_micros) as micros'),
      ),
    ofCreator(payableAwards(db('bonus_awards'), orgId)).first<{ count: string; micros: string | null }>(
      db.raw('count(*) as count'),
      db.raw('sum(amount_micros) as micros'),
    ),
  ]);
  const of = (status: string): CommissionStateTotals => {
    const row = states.find((s) => s.state === status);
    return { count: Number(row?.count ?? 0), micros: Number(row?.micros ?? 0) };
  };
  return {
    commissions: {
      held: of('reserved'),
      under_review: of('under_review'),
      unfunded: of('unfunded'),
      payable: of('payable'),
      paid: of('paid'),
    },
    clawbacksOutstanding: { count: Number(clawbacks?.count ?? 0), micros: Number(clawbacks?.micros ?? 0) },
    awardsPayable: { count: Number(awards?.count ?? 0), micros: Number(awards?.micros ?? 0) },
  };
}
