import test from 'ava';
import { computeCommission, mulDivRound, percentToMilli } from '../../lib/commission.js';

// computeCommission(revenue micro-USD, commission %, platform fee % of the commission): the wallet reserves
// commission + fee. Each amount is rounded once, half away from zero.
const commissions: { label: string; revenue: number; percent: number | string; fee: number; commission: number; platformFee: number }[] = [
  { label: '9.99 at 30% with the default 10% fee', revenue: 9_990_000, percent: 30, fee: 10, commission: 2_997_000, platformFee: 299_700 },
  {
    label: '0.01 at 33.333%: 3333.3 rounds down, fee 333.3 rounds down',
    revenue: 10_000,
    percent: 33.333,
    fee: 10,
    commission: 3_333,
    platformFee: 333,
  },
  {
    label: '0.05 at 33.333%: exactly 16666.5 rounds away from zero, fee 1666.7 up',
    revenue: 50_000,
    percent: 33.333,
    fee: 10,
    commission: 16_667,
    platformFee: 1_667,
  },
  { label: 'percentage as PostgreSQL numeric text', revenue: 50_000, percent: '33.333', fee: 10, commission: 16_667, platformFee: 1_667 },
  { label: 'fee of exactly half a micro rounds up', revenue: 50, percent: 10, fee: 10, commission: 5, platformFee: 1 },
  { label: 'commission of exactly half a micro rounds up', revenue: 5, percent: 10, fee: 10, commission: 1, platformFee: 0 },
  { label: '12.5% of 0.99', revenue: 990_000, percent: 12.5, fee: 10, commission: 123_750, platformFee: 12_375 },
  { label: 'fractional platform fee 2.5%', revenue: 9_990_000, percent: 30, fee: 2.5, commission: 2_997_000, platformFee: 74_925 },
  { label: 'no platform fee', revenue: 9_990_000, percent: 30, fee: 0, commission: 2_997_000, platformFee: 0 },
  { label: 'a trial (price 0) earns nothing', revenue: 0, percent: 30, fee: 10, commission: 0, platformFee: 0 },
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
