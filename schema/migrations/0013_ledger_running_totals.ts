import type { Knex } from 'knex';

// Wallet totals in O(1): every ledger entry carries the organization's balance and reserved amount after it, set
// by the database itself under a lock on the organization (and numbered under that lock), so concurrent writers
// can never compute them from the same predecessor. The ledger stays append-only; sums over it remain the audit of these running totals.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('wallet_ledger', (t) => {
    t.bigInteger('balance_after_micros').nullable();
    t.bigInteger('reserved_after_micros').nullable();
  });
  await knex.raw('alter table wallet_ledger disable trigger wallet_ledger_append_only');
  await knex.raw(`
    update wallet_ledger w set balance_after_micros = s.balance, reserved_after_micros = s.reserved
    from (select id, sum(balance_delta_micros) over (partition by org_id order by id) as balance,
                 sum(reserved_delta_micros) over (partition by org_id order by id) as reserved
          from wallet_ledger) s
    where s.id = w.id`);
  await knex.raw('alter table wallet_ledger enable trigger wallet_ledger_append_only');
  await knex.raw(
    'alter table wallet_ledger alter column balance_after_micros set not null, alter column reserved_after_micros set not null',
  );
  await knex.raw('create index wallet_ledger_org_id_desc_idx on wallet_ledger (org_id, id desc)');
  await knex.raw(`
    create function svc_wallet_ledger_running_totals() returns trigger
    language plpgsql
    as $$
    declare
      prev record;
    begin
      perform 1 from organizations where id = new.org_id for update;
      -- The id default was drawn before this lock: draw it again under the lock, so ids follow the order in which
      -- entries were written and "the latest entry" really holds the latest totals.
      new.id := nextval(pg_get_serial_sequence('wallet_ledger', 'id'));
      select balance_after_micros, reserved_after_micros into prev
        from wallet_ledger where org_id = new.org_id order by id desc limit 1;
      new.balance_after_micros := coalesce(prev.balance_after_micros, 0) + new.balance_delta_micros;
      new.reserved_after_micros := coalesce(prev.reserved_after_micros, 0) + new.reserved_delta_micros;
      return new;
    end
    $$`);
  await knex.raw(`create trigger wallet_ledger_running_totals before insert on wallet_ledger
    for each row execute function svc_wallet_ledger_running_totals()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger wallet_ledger_running_totals on wallet_ledger');
  await knex.raw('drop function svc_wallet_ledger_running_totals()');
  await knex.raw('drop index wallet_ledger_org_id_desc_idx');
  await knex.schema.alterTable('wallet_ledger', (t) => {
    t.dropColumn('balance_after_micros');
    t.dropColumn('reserved_after_micros');
  });
}
