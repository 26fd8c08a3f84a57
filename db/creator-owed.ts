// What a creator is owed, and when, per organization they work for (docs/creator-portal.md "What I am owed"): the
// portal home's cards read these figures here and nowhere else. Keyed by the signed-in creator's id, production only,
// amounts in micro-dollars:
// * held: commissions reserved in the holding period, with the earliest release date; waiting: recorded `unfunded`
//   until the organization tops up;
// * under review: commissions a fraud signal held for a person's decision (review_state 'held', reserved or
//   unfunded): counted there only, never in held or waiting, whatever their holding date (an approval puts them back
//   in held, or in payable when the holding period is over; a void removes them). docs/fraud-signals.md;
// * payable: commissions past their holding period plus the bonus awards a payout run may pay (db/bonus-awards.ts
//   payableAwards: approved, every refund flagged since reviewed), not yet in a payout;
// * sending: payouts recorded and not yet transferred (`transfer_pending`); paid to date: payouts transferred or
//   settled (a returned payout paid nothing and counts nowhere: its lines are payable again);
// * owed back: clawbacks not yet recovered from a payout;
// * the organization's minimum payout and schedule period (db/payout-settings.ts), for the card's date.
import type { Knex } from 'knex';
import { payableAwards } from './bonus-awards.js';
import { IN_REVIEW_SQL } from './commission-reviews.js';

export interface CreatorOwed {
  org_id: string;
  org_name: string;
  held_micros: number;
  held_count: number;
  /** The earliest `payable_at` of the held commissions; null when none is held. */
  next_release_at: Date | null;
  /** Held for review (never payable until the organization decides). */
  under_review_micros: number;
  under_review_count: number;
  waiting_micros: number;
  payable_micros: number;
  sending_micros: number;
  paid_micros: number;
  owed_back_micros: number;
  minimum_payout_micros: number;
  /** The payout schedule's period in hours; null: paid on demand by the developer. */
  period_hours: number | null;
}

interface Row {
  org_id: string;
  org_name: string;
  held_micros: string;
  held_count: string;
  next_release_at: Date | null;
  under_review_micros: string;
  under_review_count: string;
  waiting_micros: string;
  payable_commissions_micros: string;
  payable_awards_micros: string;
  sending_micros: string;
  paid_micros: string;
  owed_back_micros: string;
  minimum_payout_micros: string | null;
  period_hours: number | null;
}

const IN_REVIEW = IN_REVIEW_SQL('c');

/** One row per organization whose campaign the creator joined (organization name order). */
export async function creatorOwedByOrg(db: Knex, creatorId: string): Promise<CreatorOwed[]> {
  const { rows } = await db.raw<{ rows: Row[] }>(
    `with orgs as (
       select distinct k.org_id from creator_codes cc join campaigns k on k.id = cc.campaign_id where cc.creator_id = :creator
     ),
     earns as (
       select c.org_id,
              coalesce(sum(c.commission_micros) filter (where c.status = 'reserved' and not ${IN_REVIEW}), 0) as held_micros,
              count(*) filter (where c.status = 'reserved' and not ${IN_REVIEW}) as held_count,
              min(c.payable_at) filter (where c.status = 'reserved' and not ${IN_REVIEW}) as next_release_at,
              coalesce(sum(c.commission_micros) filter (where ${IN_REVIEW}), 0) as under_review_micros,
              count(*) filter (where ${IN_REVIEW}) as under_review_count,
              coalesce(sum(c.commission_micros) filter (where c.status = 'unfunded' and not ${IN_REVIEW}), 0) as waiting_micros,
              coalesce(sum(c.commission_micros) filter (where c.status = 'payable'), 0) as payable_micros
         from commissions c
        where c.creator_id = :creator and c.kind = 'earn' and c.environment = 'PRODUCTION'
        group by c.org_id
     ),
     awards as :awards,
     payouts as (
       select org_id,
              coalesce(sum(net_micros) filter (where transfer_status = 'transfer_pending'), 0) as sending_micros,
              coalesce(sum(net_micros) filter (where transfer_status in ('transferred', 'settled')), 0) as paid_micros
         from payouts where creator_id = :creator group by org_id
     ),
     owed as (
       select org_id, sum(amount_micros - recovered_micros) as micros from clawbacks
        where creator_id = :creator and recovered_micros < amount_micros group by org_id
     )
     select o.id as org_id, o.name as org_name,
            coalesce(e.held_micros, 0) as held_micros, coalesce(e.held_count, 0) as held_count, e.next_release_at,
            coalesce(e.under_review_micros, 0) as under_review_micros, coalesce(e.under_review_count, 0) as under_review_count,
            coalesce(e.waiting_micros, 0) as waiting_micros,
            coalesce(e.payable_micros, 0) as payable_commissions_micros, coalesce(a.micros, 0) as payable_awards_micros,
            coalesce(p.sending_micros, 0) as sending_micros, coalesce(p.paid_micros, 0) as paid_micros,
            coalesce(w.micros, 0) as owed_back_micros,
            s.minimum_payout_micros, s.period_hours
       from orgs
       join organizations o on o.id = orgs.org_id
       left join earns e on e.org_id = o.id
       left join awards a on a.org_id = o.id
       left join payouts p on p.org_id = o.id
       left join owed w on w.org_id = o.id
       left join payout_settings s on s.org_id = o.id
      order by o.name, o.id`,
    {
      creator: creatorId,
      awards: payableAwards(db('bonus_awards'))
        .where('creator_id', creatorId)
        .groupBy('org_id')
        .select('org_id', db.raw('sum(amount_micros) as micros')),
    },
  );
  return rows.map((r) => ({
    org_id: r.org_id,
    org_name: r.org_name,
    held_micros: Number(r.held_micros),
    held_count: Number(r.held_count),
    next_release_at: r.next_release_at,
    under_review_micros: Number(r.under_review_micros),
    under_review_count: Number(r.under_review_count),
    waiting_micros: Number(r.waiting_micros),
    payable_micros: Number(r.payable_commissions_micros) + Number(r.payable_awards_micros),
    sending_micros: Number(r.sending_micros),
    paid_micros: Number(r.paid_micros),
    owed_back_micros: Number(r.owed_back_micros),
    minimum_payout_micros: Number(r.minimum_payout_micros ?? 0),
    period_hours: r.period_hours,
  }));
}
