// Small query helpers for assertions.
import type { Knex } from 'knex';

export async function countRows(query: Knex.QueryBuilder): Promise<number> {
  const row = await query.clone().clearSelect().clearOrder().count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}
