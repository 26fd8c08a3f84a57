// The dashboard's destructive actions, in words: what the confirm step asks and says will happen (confirm.tsx). The
// buttons (ConfirmForm) and the routes (routes.ts `confirm`) take them from here, so both steps say the same thing.
import type { Danger } from '../view-kit/confirm.js';

export const DANGERS = {
  webhookSecret: {
    question: 'Regenerate the webhook secret?',
    label: 'Regenerate webhook secret',
    detail:
      'The current secret stops working at once: webhook calls signed with it ' +
      'are refused until you paste the new one into your subscription provider.',
  },
  purchaseKey: {
    question: 'Regenerate the purchase API key?',
    label: 'Regenerate purchase API key',
    detail: "The current key stops working at once: your server's purchase calls fail until it uses the new key.",
  },
  withdrawInvitation: {
    question: 'Withdraw this invitation?',
    label: 'Withdraw',
    detail: 'Its link stops working; the creator can only join with a new invitation.',
  },
  voidAward: {
    question: 'Void this bonus award?',
    label: 'Void',
    detail: 'The creator does not get this bonus and any money reserved for it is released. Voiding is final.',
  },
  blockCode: {
    question: 'Block this free code?',
    label: 'Block',
    detail: 'Everyone who redeemed it loses the free access at their next check, and nobody can redeem it until you unblock it.',
  },
  retireOfferCode: {
    question: 'Retire this offer code?',
    label: 'Retire',
    detail:
      'Purchases with this offer stop being credited to the creator; past ones stay theirs. The value can never be ' +
      'given to anyone again, so retiring is final.',
  },
} as const satisfies Record<string, Danger>;
