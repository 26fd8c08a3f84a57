// The payment providers a wallet top-up can go through. A provider only starts a payment: money is credited by
// our code when the provider confirms it (test mode: the human's confirmation; Stripe: its signed webhook).
import type { PaymentProviderName } from '../../schema/types.js';

export interface CheckoutRequest {
  paymentId: string;
  orgId: string;
  amountMicros: number;
  /** Where the provider sends the human back (never a proof of payment). */
  successUrl: string;
  cancelUrl: string;
}

export type CheckoutStart =
  /** Send the human to the provider's page; `externalId` names the payment there (a Checkout Session id). */
  | { kind: 'redirect'; url: string; externalId: string }
  /** The human confirms on our own page (test mode). */
  | { kind: 'confirm' };

export interface PaymentProvider {
  name: PaymentProviderName;
  /** Shown on the page: test mode must say so plainly. */
  label: string;
  startCheckout(request: CheckoutRequest): Promise<CheckoutStart>;
}

export class PaymentProviderError extends Error {}
