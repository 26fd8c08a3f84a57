import type { Knex } from 'knex';

// The wallet's totals as they are once the organization lock is held (db/wallet-ledger.ts LOCKED_WALLET_SQL). A
// statement that waits for `for update` keeps the snapshot it took before waiting: a plain read of the latest ledger
// entry in that statement misses a reservation the previous lock holder committed meanwhile, and an earn decided on
// it could reserve money the wallet no longer has. A VOLATILE PL/pgSQL function takes a fresh snapshot for each of
// its queries, and the lock statement calls it only after the lock is granted.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function svc_wallet_totals(org text, out balance bigint, out reserved bigint)
    language plpgsql volatile
    as $$
    begin
      select balance_after_micros, reserved_after_micros into balance, reserved
        from wallet_ledger where org_id = org order by id desc limit 1;
      balance := coalesce(balance, 0);
      reserved := coalesce(reserved, 0);
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function svc_wallet_totals(text)');
}
