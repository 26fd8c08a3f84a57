// Who a payout run pays and who it holds over (lib/payout-holdover.ts), and the status words of a payout
// (lib/payout-status.ts): both pure, so every case is one row of a table.
import test from 'ava';
import type { AccountState } from '../../lib/payout-account.js';
import { holdOverReason } from '../../lib/payout-holdover.js';
import { payoutStatus } from '../../lib/payout-status.js';
import type { PayoutTransferStatus } from '../../schema/types.js';

const ready: AccountState = { transfersActive: true, payoutsEnabled: true, requirementsDue: [], disabledReason: null };
const onboarding: AccountState = {
  transfersActive: false,
  payoutsEnabled: false,
  requirementsDue: ['external_account'],
  disabledReason: null,
};
const disabled: AccountState = { ...ready, disabledReason: 'rejected.fraud' };

const cases: [string, number, AccountState | undefined, number, string | null][] = [
  ['ready, no minimum: paid', 14_990_000, ready, 0, null],
  ['ready, at the minimum exactly: paid', 20_000_000, ready, 20_000_000, null],
  ['no account', 14_990_000, undefined, 0, 'no payout account connected'],
  [
    'account still onboarding',
    14_990_000,
    onboarding,
    0,
    'payout account not ready: transfers are not active yet; payouts to the ' +
      'bank account are not enabled yet; information is still due (external_account)',
  ],
  ['account disabled', 14_990_000, disabled, 0, 'payout account not ready: the account is disabled (rejected.fraud)'],
  ['ready, below the minimum', 14_990_000, ready, 20_000_000, "below the organization's minimum payout of $20.00 USD"],
  // The net as it will be sent, in whole cents: $19.995 is sent as $20.00, so it meets a $20.00 minimum ...
  ['ready, reaches the minimum once rounded to the cent', 19_995_000, ready, 20_000_000, null],
  // ... and $19.994999 is sent as $19.99, below it.
  [
    'ready, below the minimum once rounded to the cent',
    19_994_999,
    ready,
    20_000_000,
    "below the organization's minimum payout of $20.00 USD",
  ],
  ['no account and below the minimum: the account is named first', 5_000_000, undefined, 20_000_000, 'no payout account connected'],
  ['net zero (clawbacks netted it all) moves no money: no account needed', 0, undefined, 0, null],
  ['net zero under a minimum: held over', 0, undefined, 20_000_000, "below the organization's minimum payout of $20.00 USD"],
];

for (const [name, net, account, minimum, reason] of cases) {
  test(`holdOverReason: ${name}`, (t) => {
    t.is(holdOverReason(net, account, minimum), reason);
  });
}

const words: [PayoutTransferStatus, string | null, { status: string; text: string; reason?: string }][] = [
  ['transfer_pending', null, { status: 'sending', text: 'sending' }],
  ['transferred', null, { status: 'paid', text: 'paid' }],
  ['settled', null, { status: 'settled', text: 'settled: nothing to send' }],
  [
    'returned',
    'the transfer was reversed',
    { status: 'returned', text: 'returned: nothing was paid (the transfer was reversed)', reason: 'the transfer was reversed' },
  ],
  [
    'returned',
    null,
    { status: 'returned', text: 'returned: nothing was paid (the payout was returned)', reason: 'the payout was returned' },
  ],
];

for (const [state, failure, expected] of words) {
  test(`payoutStatus: ${state}${failure ? ` (${failure})` : ''}`, (t) => {
    t.deepEqual(payoutStatus({ transfer_status: state, failure }), expected);
  });
}

test('payoutStatus: only a transfer that exists is "paid"; a returned payout never says paid', (t) => {
  const all: PayoutTransferStatus[] = ['transfer_pending', 'transferred', 'settled', 'returned'];
  t.deepEqual(
    all.filter((s) => payoutStatus({ transfer_status: s }).status === 'paid'),
    ['transferred'],
  );
  t.false(payoutStatus({ transfer_status: 'returned', failure: 'x' }).text.replace('nothing was paid', '').includes('paid'));
});
