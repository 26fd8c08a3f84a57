// lib/fraud-signals/click-injection.ts (Android only), refund-abuse.ts (minimum samples, ratio and z-test) and
// leaked-code.ts (share of redeemers without click or link, in the window): each rule at its thresholds and edges.
import test from 'ava';
import {
  CLICK_INJECTION_DEVICE_SKEW_SECONDS,
  CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS,
  CLICK_INJECTION_SERVER_SKEW_SECONDS,
  clickInjection,
  type ClickInjectionFacts,
} from '../../lib/fraud-signals/click-injection.js';
import { LEAKED_CODE_MIN_USERS, LEAKED_CODE_WINDOW_DAYS, leakedCode, type CodeRedemption } from '../../lib/fraud-signals/leaked-code.js';
import {
  REFUND_ABUSE_MIN_BASELINE_PURCHASES,
  REFUND_ABUSE_MIN_PURCHASES,
  REFUND_ABUSE_MIN_REFUNDS,
  refundAbuse,
  refundZ,
} from '../../lib/fraud-signals/refund-abuse.js';

const BEGIN = 1_795_000_000; // install began (seconds since the epoch)
const android = (over: Partial<ClickInjectionFacts> = {}): ClickInjectionFacts => ({
  platform: 'android',
  referrer: { installBeginTimestampSeconds: BEGIN, referrerClickTimestampSeconds: BEGIN - 45 },
  clickAt: new Date((BEGIN - 60) * 1000),
  ...over,
});
const evidence = (o: unknown) => (o as { evidence: string }).evidence;

test('click injection: iOS and a missing install-begin time are off and say so; an honest Android install is none', (t) => {
  t.deepEqual(clickInjection({ platform: 'ios', referrer: null, clickAt: new Date() }), {
    signal: 'click_injection',
    off: 'Click injection is read on Android only; iOS reports no install-begin time.',
  });
  t.regex((clickInjection(android({ referrer: { installBeginTimestampSeconds: 0 } })) as { off: string }).off, /no install-begin time/);
  t.regex((clickInjection(android({ referrer: null })) as { off: string }).off, /no install-begin time/);
  t.is(clickInjection(android()), null);
});

test('click injection: our click after the install began, beyond the skew allowed for each clock', (t) => {
  const device = (after: number) =>
    clickInjection(android({ referrer: { installBeginTimestampSeconds: BEGIN }, clickAt: new Date((BEGIN + after) * 1000) }));
  t.is(device(CLICK_INJECTION_DEVICE_SKEW_SECONDS), null, 'within the device-clock skew');
  t.is(
    evidence(device(CLICK_INJECTION_DEVICE_SKEW_SECONDS + 30)),
    'The referral click was recorded 150 seconds after Google Play had begun the install.',
  );
  const server = (after: number) =>
    clickInjection(
      android({
        referrer: { installBeginTimestampSeconds: BEGIN - 500, installBeginTimestampServerSeconds: BEGIN },
        clickAt: new Date((BEGIN + after) * 1000),
      }),
    );
  t.is(server(CLICK_INJECTION_SERVER_SKEW_SECONDS), null, 'within the server-clock skew');
  t.is(
    evidence(server(CLICK_INJECTION_SERVER_SKEW_SECONDS + 1)),
    'The referral click was recorded 11 seconds after Google Play had begun the install.',
  );
});

test('click injection: the referrer click under the minimum click-to-install time, or after the install began', (t) => {
  const gap = (s: number) =>
    clickInjection(android({ clickAt: null, referrer: { installBeginTimestampSeconds: BEGIN, referrerClickTimestampSeconds: BEGIN - s } }));
  t.is(gap(CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS), null, 'exactly the minimum');
  t.is(
    evidence(gap(CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS - 1)),
    "The Play Install Referrer's click came only 9 seconds before the install began (under 10 seconds is faster than a person).",
  );
  t.regex(evidence(gap(-5)), /came 5 seconds after the install began/);
});

test('refund abuse: minimum samples; far above the baseline by ratio and z-test; the baseline excludes the creator', (t) => {
  const app = (purchases: number, refunds: number, creator: { purchases: number; refunds: number }) => ({
    creator,
    app: { purchases: purchases + creator.purchases, refunds: refunds + creator.refunds },
  });
  t.is(
    evidence(refundAbuse(app(1000, 50, { purchases: 10, refunds: 4 }))),
    "4 of 10 purchases through this creator were refunded (40%) in 90 days, against 5% for the app's other purchases " +
      '(50 of 1,000); a gap this size is very unlikely by chance.',
  );
  const rows: [string, ReturnType<typeof app>, boolean][] = [
    ['one purchase short of the minimum', app(1000, 50, { purchases: REFUND_ABUSE_MIN_PURCHASES - 1, refunds: 5 }), false],
    ['one refund short of the minimum', app(1000, 0, { purchases: 10, refunds: REFUND_ABUSE_MIN_REFUNDS - 1 }), false],
    ['baseline one purchase short', app(REFUND_ABUSE_MIN_BASELINE_PURCHASES - 1, 0, { purchases: 10, refunds: 5 }), false],
    ['baseline at its minimum', app(REFUND_ABUSE_MIN_BASELINE_PURCHASES, 0, { purchases: 10, refunds: 5 }), true],
    ['minimum refunds against no refunds elsewhere', app(1000, 0, { purchases: 10, refunds: 3 }), true],
    ['under twice the baseline', app(1000, 200, { purchases: 10, refunds: 3 }), false],
    ['twice a large baseline but not significant', app(100, 10, { purchases: 10, refunds: 3 }), false],
    ['large sample, small gap (6% against 5%)', app(100_000, 5_000, { purchases: 10_000, refunds: 600 }), false],
    ['large sample, far above', app(100_000, 5_000, { purchases: 1_000, refunds: 150 }), true],
  ];
  for (const [label, facts, raised] of rows) t.is(refundAbuse(facts) !== null, raised, label);
  t.true(refundZ({ purchases: 10, refunds: 4 }, { purchases: 1000, refunds: 50 }) > 4.5);
  t.is(refundZ({ purchases: 10, refunds: 0 }, { purchases: 10, refunds: 0 }), 0);
});

test('leaked code: enough distinct users, most without click or link, within the window; the code is never named', (t) => {
  const now = new Date('2026-11-20T12:00:00Z');
  const day = 86_400_000;
  const redeem = (n: number, withClick: number, at = now.getTime() - day): CodeRedemption[] =>
    Array.from({ length: n }, (_, i) => ({ userId: `u${i}`, at: new Date(at), viaClickOrLink: i < withClick }));
  t.is(
    evidence(leakedCode({ now, redemptions: redeem(25, 2) })),
    "23 of 25 users who redeemed this creator's code in the last 7 days (92%) came with no click or link of the creator: " +
      'the code may be shared beyond their audience.',
  );
  t.truthy(leakedCode({ now, redemptions: redeem(LEAKED_CODE_MIN_USERS, 4) }), 'exactly 80% of exactly the minimum');
  t.is(leakedCode({ now, redemptions: redeem(LEAKED_CODE_MIN_USERS, 5) }), null, 'under 80% without');
  t.is(leakedCode({ now, redemptions: redeem(LEAKED_CODE_MIN_USERS - 1, 0) }), null, 'one user short');
  // The same user twice counts once, and once behind a click counts as with.
  const twice = [...redeem(LEAKED_CODE_MIN_USERS - 1, 0), { userId: 'u0', at: now, viaClickOrLink: false }];
  t.is(leakedCode({ now, redemptions: twice }), null);
  const old = redeem(LEAKED_CODE_MIN_USERS, 0, now.getTime() - LEAKED_CODE_WINDOW_DAYS * day - 1);
  t.is(leakedCode({ now, redemptions: old }), null, 'just outside the window');
  t.truthy(
    leakedCode({ now, redemptions: redeem(LEAKED_CODE_MIN_USERS, 0, now.getTime() - LEAKED_CODE_WINDOW_DAYS * day) }),
    'at the edge',
  );
});
