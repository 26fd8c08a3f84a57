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

// ---- Auto-recharge: save a payment method once, then charge it without the human ------------------------------

export interface SetupRequest {
  setupId: string;
  orgId: string;
  /** The provider's customer already kept for this organization (reused), if any. */
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export type SetupStart =
  /** The human saves a card on the provider's page; the provider's signed webhook completes the setup. */
  { kind: 'redirect'; url: string; externalId: string; customerId: string };

export interface SavedMethod {
  customerId: string | null;
  paymentMethodId: string;
  label: string;
}

export interface ChargeRequest {
  paymentId: string;
  orgId: string;
  amountMicros: number;
  method: SavedMethod;
  /** Sent with the charge: the provider answers a repeat with the first charge instead of charging again. */
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { status: 'succeeded'; externalId: string; amountMicros: number }
  /** Accepted but not settled yet: the provider's webhook credits (or fails) it later. */
  | { status: 'processing'; externalId: string }
  /** Refused for good (declined card, authentication needed, method gone): retrying the same call cannot help. */
  | { status: 'declined'; externalId: string | null; reason: string };

export interface RechargeProvider {
  name: PaymentProviderName;
  label: string;
  /** Absent for test mode, whose simulated card is chosen on our own page. */
  startSetup?(request: SetupRequest): Promise<SetupStart>;
  /** Charges the saved method off-session. Throws PaymentProviderError when the provider cannot be reached (retryable). */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
