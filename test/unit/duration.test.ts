import test from 'ava';
import { durationToMs } from '../../lib/duration.js';

const cases: [string | number, number][] = [
  ['30 days', 30 * 86_400_000],
  ['400 days', 400 * 86_400_000],
  ['1 second', 1000],
  ['10 seconds', 10_000],
  ['200 milliseconds', 200],
  ['200ms', 200],
  ['1.5h', 5_400_000],
  ['2 weeks', 14 * 86_400_000],
  ['5 minutes', 300_000],
  ['750', 750],
  [1234, 1234],
  [' 3 Days ', 3 * 86_400_000],
];
for (const [input, ms] of cases) {
  test(`duration ${JSON.stringify(input)} is ${ms} ms`, (t) => t.is(durationToMs(input as never), ms));
}

test('unknown units, negative and malformed durations are refused', (t) => {
  for (const bad of ['3 fortnights', '-1 day', 'soon', '', '1 day 2 hours', -5, Number.NaN]) {
    t.throws(() => durationToMs(bad as never), { instanceOf: RangeError }, String(bad));
  }
});
