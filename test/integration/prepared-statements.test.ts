// Prepared statements (db/prepared.ts): a table changed under a running process (a migration adding a column) makes
// PostgreSQL refuse a prepared statement returning whole rows; the refusal is transient, and the next run prepares
// the statement again and returns the new column.
import test from 'ava';
import { preparedRaw } from '../../db/prepared.js';
import { isTransientDatabaseError } from '../../errors/pg-errors.js';
import { createDb } from '../../runtime/db.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test, { worker: false, api: false });

test('a prepared statement of a table that gained a column fails once as transient, then runs prepared again', async (t) => {
  const db = createDb(h().database.url, 1);
  t.teardown(() => db.destroy());
  await db.raw('create table prepared_probe (id serial primary key, a int)');
  const insert = () => preparedRaw<Record<string, unknown>>(db, 'insert into prepared_probe (a) values (?) returning *', [1]);
  t.deepEqual(Object.keys((await insert()).rows[0]!).sort(), ['a', 'id']);
  t.deepEqual(Object.keys((await insert()).rows[0]!).sort(), ['a', 'id']);
  await db.raw('alter table prepared_probe add column b int');
  const err = await t.throwsAsync(insert());
  t.true(isTransientDatabaseError(err), 'retried like an outage, not failed for good');
  t.deepEqual(Object.keys((await insert()).rows[0]!).sort(), ['a', 'b', 'id']);
  t.is(Number((await db('prepared_probe').count<{ count: string }[]>('* as count'))[0]!.count), 3);
});
