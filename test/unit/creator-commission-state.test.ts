// What a creator is told about each commission (lib/creator-commission-state.ts): six states from status and
// reversed_at (two more from a review), each with its reason; the release date is in the held and unfunded reasons.
import test from 'ava';
import { commissionState, type CreatorCommissionState } from '../../lib/creator-commission-state.js';
import { NEUTRAL_REVIEW_REASON, NEUTRAL_VOID_REASON } from '../../lib/fraud-signals/types.js';

const base = { reversed_at: null, payable_at: '2026-12-01T10:00:00Z', paid_at: null, payout_id: null, org_name: 'Acme' };

test('each stored status and reversal maps to one state with its reason', (t) => {
  t.like(commissionState({ ...base, status: 'reserved' }), { state: 'held' });
  t.regex(commissionState({ ...base, status: 'reserved' }).reason, /held until 1 Dec 2026, 10:00 UTC/);
  t.regex(commissionState({ ...base, status: 'reserved' }).reason, /Acme's prepaid wallet/);
  t.like(commissionState({ ...base, status: 'unfunded' }), { state: 'unfunded' });
  t.regex(commissionState({ ...base, status: 'unfunded' }).reason, /Waiting for Acme to top up/);
  t.like(commissionState({ ...base, status: 'payable' }), { state: 'payable' });
  t.like(commissionState({ ...base, status: 'paid', paid_at: '2026-12-02T00:00:00Z' }), {
    state: 'paid',
    reason: 'Paid on 2 Dec 2026, 00:00 UTC.',
  });
  t.like(commissionState({ ...base, status: 'reversed', reversed_at: '2026-11-30T00:00:00Z' }), { state: 'reversed' });
  t.like(commissionState({ ...base, status: 'paid', reversed_at: '2026-12-03T00:00:00Z' }), { state: 'clawed_back' });
  t.like(commissionState({ ...base, status: 'payable', reversed_at: '2026-12-03T00:00:00Z' }), { state: 'clawed_back' });
});

test('a share taken back after the release by a partial refund is named beside the state, which stays', (t) => {
  const partly = commissionState({ ...base, status: 'payable', clawed_back_micros: 1_500_000 });
  t.is(partly.state, 'payable');
  t.regex(partly.reason, /partial refund after the release took back \$1\.50 USD of it/);
  t.notRegex(commissionState({ ...base, status: 'payable', clawed_back_micros: 0 }).reason, /partial refund/);
  t.regex(
    commissionState({ ...base, status: 'paid', paid_at: '2026-12-02T00:00:00Z', clawed_back_micros: 250_000 }).reason,
    /^Paid on .*took back \$0\.25 USD/,
  );
});

// The reason is derived from the facts at read time: the same stored row reads differently once its clawback was
// taken, and a payable line tells a creator without a ready payout account what to do instead of promising a run.
const reasons: [string, Parameters<typeof commissionState>[0], CreatorCommissionState, RegExp, RegExp | null][] = [
  [
    'payable, account ready',
    { ...base, status: 'payable', account_ready: true },
    'payable',
    /^The holding period is over: paid in the next payout run\.$/,
    /connect/,
  ],
  [
    'payable, no ready account',
    { ...base, status: 'payable', account_ready: false },
    'payable',
    /^The holding period is over: connect a payout account to be paid\.$/,
    /next payout run/,
  ],
  [
    'refunded after release, clawback outstanding',
    { ...base, status: 'payable', reversed_at: '2026-12-03T00:00:00Z', clawback_outstanding_micros: 9_990_000 },
    'clawed_back',
    /amount is taken from your next payout\.$/,
    /already taken/,
  ],
  [
    'refunded after payout, clawback recovered by a later payout',
    { ...base, status: 'paid', paid_at: '2026-12-02T00:00:00Z', reversed_at: '2026-12-03T00:00:00Z', clawback_outstanding_micros: 0 },
    'clawed_back',
    /amount is already taken back from a payout\.$/,
    /next payout/,
  ],
  [
    'partial refund outstanding',
    { ...base, status: 'paid', paid_at: '2026-12-02T00:00:00Z', clawed_back_micros: 250_000, clawback_outstanding_micros: 250_000 },
    'paid',
    /took back \$0\.25 USD of it, taken from your next payout\.$/,
    /already/,
  ],
  [
    'partial refund recovered',
    { ...base, status: 'paid', paid_at: '2026-12-02T00:00:00Z', clawed_back_micros: 250_000, clawback_outstanding_micros: 0 },
    'paid',
    /took back \$0\.25 USD of it, already taken back from a payout\.$/,
    /next payout/,
  ],
  [
    'partial refund outstanding on a payable line without an account',
    { ...base, status: 'payable', account_ready: false, clawed_back_micros: 1_000_000, clawback_outstanding_micros: 1_000_000 },
    'payable',
    /^The holding period is over: connect a payout account to be paid\. A partial refund .* taken from your next payout\.$/,
    /next payout run/,
  ],
];

for (const [name, facts, state, says, never] of reasons) {
  test(`reason at read time: ${name}`, (t) => {
    const got = commissionState(facts);
    t.is(got.state, state);
    t.regex(got.reason, says);
    if (never) t.notRegex(got.reason, never);
  });
}

// A review (docs/fraud-signals.md "What the creator sees"): held reads "under review", a void "voided", each with the
// neutral reason that names no rule, no date and no refund; a flag or an approval changes nothing the creator sees.
test('held for review reads under review, a void reads voided, neutrally; a flag or an approval shows the money state', (t) => {
  const rule = /self|email|referral|install|refund|held until|wallet/i;
  for (const status of ['reserved', 'unfunded']) {
    const held = commissionState({ ...base, status, review_state: 'held' });
    t.deepEqual(held, { state: 'under_review', reason: NEUTRAL_REVIEW_REASON }, status);
    t.notRegex(held.reason, rule);
  }
  const voided = commissionState({ ...base, status: 'reversed', reversed_at: '2026-11-30T00:00:00Z', review_state: 'voided' });
  t.deepEqual(voided, { state: 'voided', reason: NEUTRAL_VOID_REASON });
  t.notRegex(voided.reason, rule);
  // Voided late (a flag decided after the release): taken back as a clawback, still without the refund wording.
  const late = commissionState({
    ...base,
    status: 'payable',
    reversed_at: '2026-12-03T00:00:00Z',
    review_state: 'voided',
    clawback_outstanding_micros: 1_000_000,
  });
  t.is(late.state, 'voided');
  t.regex(
    late.reason,
    /^This commission was not confirmed after review and will not be paid\. The amount already released is taken from your next payout\.$/,
  );
  t.notRegex(late.reason, /refund/);
  t.like(commissionState({ ...base, status: 'reserved', review_state: 'flagged' }), { state: 'held' });
  t.like(commissionState({ ...base, status: 'payable', review_state: 'approved' }), { state: 'payable' });
  // A held commission refunded is reversed by the refund: the refund's words, as for any.
  t.like(commissionState({ ...base, status: 'reversed', reversed_at: '2026-11-30T00:00:00Z', review_state: 'held' }), {
    state: 'reversed',
  });
});
