import type { Knex } from 'knex';

// Issue 36, "returned is never paid" and "one rule for who is paid":
// * payout_run_holdovers: the creators a recorded payout run held over and why (no ready payout account, or below the
//   organization's minimum: lib/payout-holdover.ts), so the run's page and a repeat of `svc payouts run` list them
//   as they were decided. Their lines stayed payable; nothing here is money.
// * creator_digest_items gains `payout_reversed`: a transfer Stripe took back after the creator heard it was sent
//   (db/payout-transfers.ts returnPayout), told as its own item, never by silently dropping the earlier one.
const KINDS_BEFORE = ['commission_payable', 'payout_sent', 'payout_failed'];
const KINDS_AFTER = [...KINDS_BEFORE, 'payout_reversed'];

async function digestKinds(knex: Knex, kinds: string[]): Promise<void> {
  await knex.raw('alter table creator_digest_items drop constraint creator_digest_items_kind_check');
  const list = kinds.map((k) => `'${k}'`).join(', ');
  await knex.raw(`alter table creator_digest_items add constraint creator_digest_items_kind_check check (kind in (${list}))`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payout_run_holdovers', (t) => {
    t.text('run_id').notNullable().references('payout_runs.id').onDelete('CASCADE');
    t.text('creator_id').notNullable().references('creators.id').onDelete('CASCADE');
    // What the creator would have been paid now (net of clawbacks), in micro-USD.
    t.bigInteger('payable_micros').notNullable();
    t.text('reason').notNullable();
    t.primary(['run_id', 'creator_id']);
  });
  await digestKinds(knex, KINDS_AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await knex('creator_digest_items').where('kind', 'payout_reversed').update({ kind: 'payout_failed' });
  await digestKinds(knex, KINDS_BEFORE);
  await knex.schema.dropTable('payout_run_holdovers');
}
