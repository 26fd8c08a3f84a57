// The purchase path's hot statements as named (prepared) statements: PostgreSQL parses each once per pooled
// connection and, after a few runs, reuses a generic plan, instead of parsing and planning it on every event
// (docs/purchase-pipeline.md "Prepared statements"). The name is a digest of the statement's text, so two texts
// never share a name (an array binding expands to one placeholder per element, so its length is part of the text).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { isStalePreparedStatement } from '../errors/pg-errors.js';

const names = new Map<string, string>();
/**
 * Part of every name: a table whose columns changed under a running process (a migration) makes PostgreSQL refuse
 * its prepared statements that return whole rows ("cached plan must not change result type"), on every connection
 * that prepared them. The refusal is transient (errors/pg-errors.ts), and the retry prepares the statement again under
 * a new name.
 */
let generation = 0;

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `svc_${generation}_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    // The texts are the purchase path's few statement shapes; a bound keeps a bug from growing the map for ever.
    if (names.size < 1000) names.set(sql, name);
  }
  return name;
}

const shapeOf = (sql: string, bindings: readonly Knex.RawBinding[]) =>
  bindings.some(Array.isArray) ? `${sql}\n-- ${bindings.map((b) => (Array.isArray(b) ? b.length : '')).join(',')}` : sql;

/** `sql` with `?` placeholders, run as a named statement; answers pg's result (`rows`). */
export async function preparedRaw<R>(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly Knex.RawBinding[],
): Promise<{ rows: R[] }> {
  try {
    return await db.raw<{ rows: R[] }>(sql, bindings).options({ name: nameOf(shapeOf(sql, bindings)) });
  } catch (err) {
    if (isStalePreparedStatement(err)) {
      generation += 1;
      names.clear();
    }
    throw err;
  }
}

/** A query builder's statement, run as a named statement; answers its rows. */
export async function preparedRows<R>(db: Knex | Knex.Transaction, query: Knex.QueryBuilder): Promise<R[]> {
  const { sql, bindings } = query.toSQL();
  return (await preparedRaw<R>(db, sql, bindings)).rows;
}
