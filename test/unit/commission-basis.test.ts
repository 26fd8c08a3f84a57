// lib/commission-basis.ts and lib/storefront-tax.ts: the base a commission percentage applies to, in exact micros
// (labelled rows): gross; proceeds exact from the provider's fractions; proceeds estimated from the storefront's tax
// and the store's fee (30 %, 15 %, Apple's second year with the 60-day lapse rule, Google's rules).
import test from 'ava';
import {
  applePaidDaysBefore,
  basisShare,
  commissionBase,
  estimatedStoreFeePercent,
  storefrontOfRaw,
  type BasisInput,
  type PaidPeriod,
} from '../../lib/commission-basis.js';
import { computeCommission } from '../../lib/commission.js';
import { storefrontCode, taxRateMilli } from '../../lib/storefront-tax.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const NO_PROGRAMS = { appleSmallBusiness: false, googleFeeTierEnrolled: false };
const input = (over: Partial<BasisInput>): BasisInput => ({
  basis: 'proceeds',
  grossMicros: 9_990_000,
  store: 'APP_STORE',
  kind: 'subscription',
  storefront: null,
  fees: NO_PROGRAMS,
  ...over,
});
/** `n` consecutive paid periods of `days` each, from `startMs`. */
const periods = (startMs: number, n: number, days: number): PaidPeriod[] =>
  Array.from({ length: n }, (_, i) => ({ startMs: startMs + i * days * DAY, endMs: startMs + (i + 1) * days * DAY }));

type Want = { basis: string; precision: string; tax: number | null; fee: number | null; base: number };
const estimated = (tax: number, fee: number, base: number): Want => ({ basis: 'proceeds', precision: 'estimated', tax, fee, base });
const exact = (tax: number, fee: number, base: number): Want => ({ basis: 'proceeds', precision: 'exact', tax, fee, base });

test('the basis table: gross, tax-inclusive storefronts, 15 % and 30 %, the provider fractions', (t) => {
  const rows: [string, Partial<BasisInput>, Want][] = [
    [
      'gross: the price, nothing taken out',
      { basis: 'gross', storefront: 'DEU' },
      { basis: 'gross', precision: 'exact', tax: null, fee: null, base: 9_990_000 },
    ],
    // The example: 9.99 with 19 % VAT is 8.39 net of tax and 5.87 after a 30 % fee, not 6.99.
    ['Germany (DEU), Apple 30 %', { storefront: 'DEU' }, estimated(1_595_042, 2_518_487, 5_876_471)],
    [
      'Germany (DE, Google regionCode), Play subscription 15 %',
      { store: 'PLAY_STORE', storefront: 'DE' },
      estimated(1_595_042, 1_259_244, 7_135_714),
    ],
    ['United States: price without tax, Apple 30 %', { storefront: 'USA' }, estimated(0, 2_997_000, 6_993_000)],
    ['Finland 25.5 %', { storefront: 'FIN' }, estimated(2_029_841, 2_388_048, 5_572_111)],
    [
      'Japan 10 %, Small Business Program 15 %',
      { storefront: 'JPN', fees: { ...NO_PROGRAMS, appleSmallBusiness: true } },
      estimated(908_182, 1_362_273, 7_719_545),
    ],
    ['Play one-time, not enrolled: 30 %', { store: 'PLAY_STORE', kind: 'one_time', storefront: 'US' }, estimated(0, 2_997_000, 6_993_000)],
    [
      'Play one-time, 15 % tier enrolled',
      { store: 'PLAY_STORE', kind: 'one_time', storefront: 'US', fees: { ...NO_PROGRAMS, googleFeeTierEnrolled: true } },
      estimated(0, 1_498_500, 8_491_500),
    ],
    ['storefront not in the table: no tax taken out', { storefront: 'BRA' }, estimated(0, 2_997_000, 6_993_000)],
    ['another store, no fractions: no fee known', { store: 'AMAZON', storefront: 'US' }, estimated(0, 0, 9_990_000)],
    [
      'provider fractions (exact), both of the price',
      { storefront: 'DEU', provider: { taxFraction: 0.1597, storeFeeFraction: 0.2521 } },
      exact(1_595_403, 2_518_479, 5_876_118),
    ],
    ['provider fractions without tax', { provider: { taxFraction: 0, storeFeeFraction: 0.3 } }, exact(0, 2_997_000, 6_993_000)],
  ];
  for (const [label, over, want] of rows) {
    const got = commissionBase(input(over));
    t.deepEqual(
      { basis: got.basis, precision: got.precision, tax: got.taxMicros, fee: got.storeFeeMicros, base: got.baseMicros },
      want,
      label,
    );
    t.is(got.grossMicros, 9_990_000, label);
    if (got.taxMicros !== null) t.is(got.taxMicros + got.storeFeeMicros! + got.baseMicros, got.grossMicros, `${label}: adds up`);
  }
});

test('the commission is the percentage of the base, in whole cents', (t) => {
  const base = commissionBase(input({ storefront: 'DEU' })).baseMicros;
  t.is(computeCommission(base, 30, 10).commissionMicros, 1_760_000, '30 % of 5.876471 is 1.76');
  t.is(computeCommission(commissionBase(input({ basis: 'gross' })).baseMicros, 30, 10).commissionMicros, 3_000_000);
});

test("Apple's paid days: the first year at 30 %, then 15 %; a lapse over 60 days starts again", (t) => {
  const year = periods(T0, 12, 30.5); // 366 paid days, monthly
  const after = T0 + 366 * DAY;
  const rows: [string, PaidPeriod[], number, number][] = [
    ['no earlier period: first purchase', [], T0, 30],
    ['eleven months paid', year.slice(0, 11), T0 + 335.5 * DAY, 30],
    ['a full year paid: the 13th month', year, after, 15],
    ['a year with a 59-day lapse before renewing: still counts', year, after + 59 * DAY, 15],
    ['a year, then a 61-day lapse: the count starts again', year, after + 61 * DAY, 30],
    [
      'a 61-day lapse in the middle resets the earlier months',
      [...periods(T0, 6, 30.5), ...periods(T0 + (183 + 61) * DAY, 6, 30.5)],
      T0 + (183 + 61 + 183) * DAY,
      30,
    ],
    [
      'a 30-day lapse in the middle keeps them',
      [...periods(T0, 6, 30.5), ...periods(T0 + (183 + 30) * DAY, 6, 30.5)],
      T0 + (183 + 30 + 183) * DAY,
      15,
    ],
  ];
  for (const [label, earlier, at, fee] of rows) {
    t.is(
      estimatedStoreFeePercent({
        store: 'APP_STORE',
        kind: 'subscription',
        fees: NO_PROGRAMS,
        earlierPaidPeriods: earlier,
        periodStartMs: at,
      }),
      fee,
      label,
    );
  }
  t.is(Math.round(applePaidDaysBefore(year, after)), 366);
  t.is(applePaidDaysBefore(year, after + 61 * DAY), 0);
  t.is(
    estimatedStoreFeePercent({ store: 'APP_STORE', kind: 'one_time', fees: NO_PROGRAMS, earlierPaidPeriods: year, periodStartMs: after }),
    30,
    'one-time products have no second year',
  );
  const second = commissionBase(input({ storefront: 'DEU', earlierPaidPeriods: year, periodStartMs: after }));
  t.is(second.storeFeeMicros, 1_259_244, 'second year: 15 % of the price without tax');
});

test('a share of a commission keeps its basis: amounts in proportion to the refunded revenue', (t) => {
  const whole = commissionBase(input({ storefront: 'DEU' }));
  t.deepEqual(basisShare(whole, 9_990_000), whole);
  const half = basisShare(whole, 4_995_000);
  t.deepEqual(half, { ...whole, grossMicros: 4_995_000, taxMicros: 797_521, storeFeeMicros: 1_259_244, baseMicros: 2_938_236 });
  t.deepEqual(basisShare(commissionBase(input({ basis: 'gross' })), 4_995_000).taxMicros, null);
});

test('storefronts: alpha-2 or alpha-3, from each raw payload', (t) => {
  t.is(storefrontCode('deu'), 'DE');
  t.is(storefrontCode('DE'), 'DE');
  t.is(storefrontCode('XX'), undefined);
  t.is(taxRateMilli('FIN'), 25_500n);
  t.is(storefrontOfRaw({ app_store_transaction: { storefront: 'DEU' } }), 'DEU');
  t.is(storefrontOfRaw({ play_subscription: { regionCode: 'FR' } }), 'FR');
  t.is(storefrontOfRaw({ play_product: { regionCode: 'JP' } }), 'JP');
  t.is(storefrontOfRaw({ event: { country_code: 'GB' } }), 'GB');
  t.is(storefrontOfRaw({}), null);
});
