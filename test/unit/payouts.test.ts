import test from 'ava';
import { newRunId, planPayouts, RUN_ID_PATTERN } from '../../lib/payouts.js';

const commission = (id: string, creatorId: string, commissionMicros: number, platformFeeMicros = 0) => ({
  id,
  creatorId,
  commissionMicros,
  platformFeeMicros,
});

test('each creator is paid the gross of their payable commissions; the fees leave with them', (t) => {
  const plans = planPayouts(
    [commission('c1', 'b', 2_000_000, 200_000), commission('c2', 'a', 1_000_000, 100_000), commission('c3', 'b', 3_000_000, 300_000)],
    [],
  );
  t.deepEqual(
    plans.map((p) => [p.creatorId, p.commissionIds, p.grossMicros, p.feesMicros, p.clawbacksNettedMicros, p.netMicros]),
    [
      ['a', ['c2'], 1_000_000, 100_000, 0, 1_000_000],
      ['b', ['c1', 'c3'], 5_000_000, 500_000, 0, 5_000_000],
    ],
  );
});

test('clawbacks are netted oldest first, only from their own creator, never below zero; the rest waits', (t) => {
  const [a, b] = planPayouts(
    [commission('c1', 'a', 3_000_000), commission('c2', 'b', 1_000_000)],
    [
      { id: 'k1', creatorId: 'a', amountMicros: 2_000_000, recoveredMicros: 500_000 },
      { id: 'k2', creatorId: 'a', amountMicros: 4_000_000, recoveredMicros: 0 },
      { id: 'k3', creatorId: 'c', amountMicros: 9_000_000, recoveredMicros: 0 },
    ],
  );
  t.like(a, { grossMicros: 3_000_000, clawbacksNettedMicros: 3_000_000, netMicros: 0 });
  t.deepEqual(a!.recoveries, [
    { clawbackId: 'k1', micros: 1_500_000 },
    { clawbackId: 'k2', micros: 1_500_000 },
  ]);
  t.like(b, { clawbacksNettedMicros: 0, netMicros: 1_000_000, recoveries: [] });
});

test(
  'approved awards are paid beside commissions, in the gross with ' + 'no fee; a creator with only an award is paid; clawbacks net from it',
  (t) => {
    const plans = planPayouts(
      [commission('c1', 'a', 1_000_000, 100_000)],
      [{ id: 'k1', creatorId: 'b', amountMicros: 4_000_000, recoveredMicros: 0 }],
      [
        { id: 'w1', creatorId: 'a', amountMicros: 20_000_000 },
        { id: 'w2', creatorId: 'b', amountMicros: 5_000_000 },
        { id: 'w3', creatorId: 'a', amountMicros: 1_000_000 },
      ],
    );
    t.deepEqual(
      plans.map((p) => [
        p.creatorId,
        p.commissionIds,
        p.awardIds,
        p.awardsMicros,
        p.grossMicros,
        p.feesMicros,
        p.clawbacksNettedMicros,
        p.netMicros,
      ]),
      [
        ['a', ['c1'], ['w1', 'w3'], 21_000_000, 22_000_000, 100_000, 0, 22_000_000],
        ['b', [], ['w2'], 5_000_000, 5_000_000, 0, 4_000_000, 1_000_000],
      ],
    );
  },
);

test('a creator with clawbacks but nothing payable gets no payout', (t) => {
  t.deepEqual(planPayouts([], [{ id: 'k1', creatorId: 'a', amountMicros: 1, recoveredMicros: 0 }]), []);
});

test('generated run ids are valid run ids', (t) => {
  const id = newRunId(new Date('2026-11-22T23:40:01.123Z'), 'abcdef012345');
  t.is(id, 'run_20261122T234001Z_abcdef012345');
  t.regex(id, RUN_ID_PATTERN);
  t.notRegex('no spaces', RUN_ID_PATTERN);
});
