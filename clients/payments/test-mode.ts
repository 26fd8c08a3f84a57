// The embedded test-mode provider (`svc dev`'s default): no card, no network; the human's confirmation on our own
// page credits the wallet. Never offered in production (runtime/config.ts refuses it there). For auto-recharge the human
// picks one of two simulated cards on the page (numbers of Stripe's test cards, so the behaviour is familiar): one
// that always succeeds and one that is always declined.
import type { PaymentProvider, RechargeProvider, SavedMethod } from './provider.js';

export const TEST_CARDS = {
  test_card_ok: 'Simulated test card 4242 4242 4242 4242 (always succeeds)',
  test_card_declined: 'Simulated test card 4000 0000 0000 0002 (always declined)',
} as const;
export type TestCard = keyof typeof TEST_CARDS;

export function isTestCard(value: unknown): value is TestCard {
  return typeof value === 'string' && Object.hasOwn(TEST_CARDS, value);
}

export function testCardMethod(card: TestCard): SavedMethod {
  return { customerId: null, paymentMethodId: card, label: TEST_CARDS[card] };
}

export const testModeProvider: PaymentProvider & RechargeProvider = {
  name: 'test',
  label: 'Test mode: no real money moves. Confirming credits the wallet immediately.',
  startCheckout: async () => ({ kind: 'confirm' }),
  async charge(r) {
    if (r.method.paymentMethodId === 'test_card_declined') {
      return { status: 'declined', externalId: null, reason: 'Your card was declined (test mode: simulated card 4000 0000 0000 0002).' };
    }
    return { status: 'succeeded', externalId: `test_${r.paymentId}`, amountMicros: r.amountMicros };
  },
};
