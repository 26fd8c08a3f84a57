import test from 'ava';
import { cleanupCode, isValidCodeLength, issueCreatorCode } from '../../lib/codes.js';
import { toMicros } from '../../lib/money.js';
import { isValidSlug, slugify } from '../../lib/slugs.js';

const codes: { label: string; raw: string; cleaned: string }[] = [
  { label: 'lowercase is uppercased', raw: 'summer24', cleaned: 'SUMMER24' },
  { label: 'spaces and punctuation dropped', raw: ' sum mer!24 ', cleaned: 'SUMMER24' },
  { label: 'dash and underscore kept', raw: 'a-b_c1', cleaned: 'A-B_C1' },
  { label: 'accents dropped', raw: 'café', cleaned: 'CAF' },
];

for (const { label, raw, cleaned } of codes) {
  test(`cleanupCode: ${label}`, (t) => {
    t.is(cleanupCode(raw), cleaned);
  });
}

test('code length 4 to 20 after cleanup', (t) => {
  t.false(isValidCodeLength('ABC'));
  t.true(isValidCodeLength('ABCD'));
  t.true(isValidCodeLength('A'.repeat(20)));
  t.false(isValidCodeLength('A'.repeat(21)));
});

test('issued creator codes are INFLU- prefixed, valid and survive cleanup unchanged', (t) => {
  const code = issueCreatorCode();
  t.regex(code, /^INFLU-[A-Z2-9]{6}$/);
  t.is(cleanupCode(code), code);
  t.true(isValidCodeLength(code));
});

const money: [string | number, number][] = [
  ['9.99', 9_990_000],
  [9.99, 9_990_000],
  ['0.0000005', 1],
  ['0.0000004', 0],
  ['-4.99', -4_990_000],
  [0.1 + 0.2, 300_000],
  ['1000', 1_000_000_000],
  ['12.3456789', 12_345_679],
];
for (const [input, micros] of money) {
  test(`toMicros(${JSON.stringify(input)}) = ${micros}`, (t) => {
    t.is(toMicros(input), micros);
  });
}

test('toMicros rejects non-decimal input', (t) => {
  t.throws(() => toMicros('1e5'));
  t.throws(() => toMicros('abc'));
});

test('slugs: reserved first path segments can never be slugs', (t) => {
  for (const reserved of ['api', 'mcp', 'oauth', '.well-known', 'join', 'dashboard', 'healthz', 'readyz', 'metrics']) {
    t.false(isValidSlug(reserved), reserved);
  }
  t.true(isValidSlug('my-app'));
  t.false(isValidSlug('My App'));
  t.is(slugify('Héllo Wörld!'), 'hello-world');
});
