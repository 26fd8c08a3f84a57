// The earn decides funded or unfunded inside the one statement that takes the organization lock (db/commissions.ts),
// so the rule is written twice: lib/funding.ts's fundingOf (the owner, with its table in
// test/unit/money-decisions.test.ts) and FUNDED_SQL. PostgreSQL evaluates FUNDED_SQL over a grid of safe balances and
// reservations around every boundary, and each answer must be fundingOf's.
import test from 'ava';
import { FUNDED_SQL } from '../../db/commissions.js';
import { fundingOf } from '../../lib/funding.js';
import { createDb } from '../../runtime/db.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test, { worker: false, api: false });

test('FUNDED_SQL answers as fundingOf for every safe balance and reservation on the grid', async (t) => {
  const db = createDb(h().database.url, 1);
  t.teardown(() => db.destroy());
  const amounts = [-5_000_000, -1, 0, 1, 1_999_999, 2_000_000, 2_000_001, 9_007_199_254_740_991];
  const grid = amounts.flatMap((safe) => amounts.filter((r) => r >= 0).map((reserve) => [safe, reserve] as const));
  const { rows } = await db.raw<{ rows: { funding: string }[] }>(
    `select ${FUNDED_SQL('g.safe', 'g.reserve')} as funding
     from unnest(?::bigint[], ?::bigint[]) with ordinality as g(safe, reserve, n) order by g.n`,
    [grid.map(([s]) => String(s)), grid.map(([, r]) => String(r))],
  );
  t.is(rows.length, grid.length);
  t.deepEqual(
    rows.map((r) => r.funding),
    grid.map(([safe, reserve]) => fundingOf(safe, reserve)),
  );
  t.true(rows.some((r) => r.funding === 'reserved') && rows.some((r) => r.funding === 'unfunded'));
});
