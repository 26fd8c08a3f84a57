import test from 'ava';
import { computeCommission, percentToMilli } from '../../lib/commission.js';
import { csvUsd, exactCents, isWholeCents, mulDivRound, toCentsMicros } from '../../lib/money.js';

// computeCommission(revenue micro-USD, commission %, platform fee % of the commission): the wallet reserves
// commission + fee. Each amount is created in whole cents, rounded once from the exact product, half away from
// zero; the fee is computed on the commission as rounded.
const commissions: { label: string; revenue: number; percent: number | string; fee: number; commission: number; platformFee: number }[] = [
  {
    label: '25% of 39.99 is 10.00 (not 9.9975), fee 1.00',
    revenue: 39_990_000,
    percent: 25,
    fee: 10,
    commission: 10_000_000,
    platformFee: 1_000_000,
  },
  { label: '9.99 at 30%: 2.997 is 3.00, fee 0.30', revenue: 9_990_000, percent: 30, fee: 10, commission: 3_000_000, platformFee: 300_000 },
  {
    label: '14.99 at 25%: 3.7475 is 3.75, fee 0.375 rounds away to 0.38',
    revenue: 14_990_000,
    percent: 25,
    fee: 10,
    commission: 3_750_000,
    platformFee: 380_000,
  },
  { label: '0.01 at 33.333%: 0.0033 rounds to nothing', revenue: 10_000, percent: 33.333, fee: 10, commission: 0, platformFee: 0 },
  {
    label: 'exactly half a cent rounds away from zero: 0.10 at 5% is 0.005, 0.01',
    revenue: 100_000,
    percent: 5,
    fee: 10,
    commission: 10_000,
    platformFee: 0,
  },
  {
    label: 'rounded once from the exact product, not twice: 0.0049995 is 0.00 (rounding to micros first would give 0.01)',
    revenue: 49_995,
    percent: 10,
    fee: 10,
    commission: 0,
    platformFee: 0,
  },
  {
    label: 'percentage as PostgreSQL numeric text',
    revenue: 50_000_000,
    percent: '33.333',
    fee: 10,
    commission: 16_670_000,
    platformFee: 1_670_000,
  },
  { label: '12.5% of 0.99: 0.12375 is 0.12', revenue: 990_000, percent: 12.5, fee: 10, commission: 120_000, platformFee: 10_000 },
  {
    label: 'fractional platform fee 2.5% of 3.00: 0.075 is 0.08',
    revenue: 9_990_000,
    percent: 30,
    fee: 2.5,
    commission: 3_000_000,
    platformFee: 80_000,
  },
  { label: 'no platform fee', revenue: 9_990_000, percent: 30, fee: 0, commission: 3_000_000, platformFee: 0 },
  { label: 'a trial (price 0) earns nothing', revenue: 0, percent: 30, fee: 10, commission: 0, platformFee: 0 },
  {
    label: 'a converted price keeps its micros; the commission is cents',
    revenue: 10_832_157,
    percent: 25,
    fee: 10,
    commission: 2_710_000,
    platformFee: 270_000,
  },
  { label: '100% commission', revenue: 1_000_000, percent: 100, fee: 10, commission: 1_000_000, platformFee: 100_000 },
  {
    label: 'near 2^53 micros stays exact',
    revenue: 9_000_000_000_000_000,
    percent: 33.333,
    fee: 10,
    commission: 2_999_970_000_000_000,
    platformFee: 299_997_000_000_000,
  },
];

for (const row of commissions) {
  test(`computeCommission: ${row.label}`, (t) => {
    const got = computeCommission(row.revenue, row.percent, row.fee);
    t.true(isWholeCents(got.commissionMicros) && isWholeCents(got.platformFeeMicros), 'whole cents');
    t.deepEqual(computeCommission(row.revenue, row.percent, row.fee), {
      revenueMicros: row.revenue,
      commissionMicros: row.commission,
      platformFeeMicros: row.platformFee,
      reserveMicros: row.commission + row.platformFee,
    });
  });
}

const divisions: { label: string; value: number; numerator: bigint; denominator: bigint; result: number }[] = [
  { label: '+2.5 rounds to +3', value: 5, numerator: 1n, denominator: 2n, result: 3 },
  { label: '-2.5 rounds to -3', value: -5, numerator: 1n, denominator: 2n, result: -3 },
  { label: '+3.5 rounds to +4 (not to even)', value: 7, numerator: 1n, denominator: 2n, result: 4 },
  { label: '-3.5 rounds to -4', value: -7, numerator: 1n, denominator: 2n, result: -4 },
  { label: '+0.333 rounds to 0', value: 1, numerator: 1n, denominator: 3n, result: 0 },
  { label: '+0.667 rounds to +1', value: 2, numerator: 1n, denominator: 3n, result: 1 },
  { label: '-0.667 rounds to -1', value: -2, numerator: 1n, denominator: 3n, result: -1 },
  { label: 'a refund mirror: -16666.5 rounds to -16667', value: -50_000, numerator: 33_333n, denominator: 100_000n, result: -16_667 },
  { label: 'zero stays zero', value: 0, numerator: 33_333n, denominator: 100_000n, result: 0 },
];

for (const row of divisions) {
  test(`mulDivRound: ${row.label}`, (t) => {
    t.is(mulDivRound(row.value, row.numerator, row.denominator), row.result);
  });
}

const percents: { label: string; percentage: number | string; milli: bigint }[] = [
  { label: 'whole number', percentage: 30, milli: 30_000n },
  { label: 'one decimal', percentage: 12.5, milli: 12_500n },
  { label: 'three decimals', percentage: 33.333, milli: 33_333n },
  { label: 'numeric text', percentage: '33.333', milli: 33_333n },
  { label: 'numeric text with trailing zeros', percentage: '30.000', milli: 30_000n },
  { label: 'numeric text without decimals', percentage: '7', milli: 7_000n },
  { label: 'smallest step', percentage: 0.001, milli: 1n },
  { label: 'binary float noise does not leak (0.1 + 0.2)', percentage: 0.1 + 0.2, milli: 300n },
];

for (const row of percents) {
  test(`percentToMilli: ${row.label}`, (t) => {
    t.is(percentToMilli(row.percentage), row.milli);
  });
}

test('mulDivRound to the cent: one step from the exact ratio, half away from zero', (t) => {
  t.is(mulDivRound(39_990_000, 25n, 100n, 10_000), 10_000_000);
  t.is(mulDivRound(-39_990_000, 25n, 100n, 10_000), -10_000_000);
  t.is(mulDivRound(5_000, 1n, 1n, 10_000), 10_000, 'half a cent up');
  t.is(mulDivRound(-5_000, 1n, 1n, 10_000), -10_000, 'minus half a cent away from zero');
  t.is(mulDivRound(4_999, 1n, 1n, 10_000), 0);
});

test('toCentsMicros is the same rule; csvUsd prints exactly two decimals of the cents', (t) => {
  const rows: [number, number, string][] = [
    [9_997_500, 10_000_000, '10.00'],
    [3_747_500, 3_750_000, '3.75'],
    [10_000_000, 10_000_000, '10.00'],
    [-3_745_000, -3_750_000, '-3.75'],
    [4_999, 0, '0.00'],
    [50_000, 50_000, '0.05'],
    [123_456_789_000, 123_456_790_000, '123456.79'],
  ];
  for (const [micros, cents, text] of rows) {
    t.is(toCentsMicros(micros), cents, `${micros}`);
    t.is(csvUsd(micros), text, `${micros}`);
  }
});

test('exactCents: a payout net in cents exactly, a fraction of a cent refused rather than rounded', (t) => {
  t.is(exactCents(10_000_000), 1_000);
  t.is(exactCents(0), 0);
  t.throws(() => exactCents(9_997_500), { instanceOf: RangeError, message: /not a whole number of cents/ });
  t.throws(() => exactCents(1), { instanceOf: RangeError });
});
