import type { Knex } from 'knex';

// Partial refunds (issue 31, docs/purchase-pipeline.md "Refunds"): a refund may take back a share of a transaction's
// commission, and a later refund of the same transaction the next share.
//
// * An earn released before its refund keeps its state and gets one reversal row per refund that takes a share of
//   it: reversals of one earn are unique per refund event, no longer per earn.
// * One refund event may take back more than one earn of its transaction (a restored share beside the remainder), so
//   an event holds at most one earn and one reversal per earn it reverses (was: one row per kind).
// * A released earn may be clawed back in shares: one clawback per earn and refund event (was: per earn).
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table commissions drop constraint commissions_reverses_uq');
  await knex.raw('create index commissions_reverses_idx on commissions (reverses_commission_id) where reverses_commission_id is not null');
  await knex.raw('alter table commissions drop constraint commissions_event_kind_uq');
  await knex.raw("create unique index commissions_event_earn_uq on commissions (purchase_event_id) where kind = 'earn'");
  await knex.raw(
    "create unique index commissions_event_reversal_uq on commissions (purchase_event_id, reverses_commission_id) where kind = 'reversal'",
  );
  await knex.raw('alter table clawbacks drop constraint clawbacks_commission_uq');
  await knex.raw('alter table clawbacks add constraint clawbacks_commission_refund_uq unique (commission_id, refund_event_id)');
}

// Refused once a commission has two reversals, an event two reversals, or a commission two clawbacks.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table clawbacks drop constraint clawbacks_commission_refund_uq');
  await knex.raw('alter table clawbacks add constraint clawbacks_commission_uq unique (commission_id)');
  await knex.raw('drop index commissions_event_reversal_uq');
  await knex.raw('drop index commissions_event_earn_uq');
  await knex.raw('alter table commissions add constraint commissions_event_kind_uq unique (purchase_event_id, kind)');
  await knex.raw('drop index commissions_reverses_idx');
  await knex.raw('alter table commissions add constraint commissions_reverses_uq unique (reverses_commission_id)');
}
