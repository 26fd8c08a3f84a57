// The embedded test-mode provider (`svc dev`'s default): no card, no network; the human's confirmation on our own
// page credits the wallet. Never offered in production (lib/config.ts refuses it there).
import type { PaymentProvider } from './provider.js';

export const testModeProvider: PaymentProvider = {
  name: 'test',
  label: 'Test mode: no real money moves. Confirming credits the wallet immediately.',
  startCheckout: async () => ({ kind: 'confirm' }),
};
