// Wallet top-ups (docs/wallet-and-payouts.md): the one owner of every write a payment goes through. Starting spends
// the signed top-up link and records the pending payment in one transaction, then asks the provider to start it
// (Stripe: a Checkout Session to redirect to; test mode: a confirmation on our own page). Crediting happens once,
// when the provider confirms (the test-mode confirmation, Stripe's signed webhook, an auto-recharge charge): the
// `topup` entry and the catch-up of `unfunded` commissions under the organization lock (db/payments-writes.ts).
// Callers (api/dashboard/wallet/topup-pages.tsx, api/webhooks/stripe.ts, activities/auto-recharge.ts) translate only.
import type { Knex } from 'knex';
import { PaymentProviderError, type PaymentProvider } from '../clients/payments/provider.js';
import {
  creditPayment,
  markPaymentFailed,
  setPaymentAvailableAt,
  setPaymentExternalId,
  startPayment,
  type Credit,
  type NewPayment,
} from '../db/payments-writes.js';
import { generateToken, hashToken } from '../lib/credentials.js';

export type { Credit } from '../db/payments-writes.js';

export interface TopUpDeps {
  db: Knex;
  /** The auto-recharge check after the wallet changed (api/recharge-check.ts); absent where none is due. */
  checkAutoRecharge?: (orgId: string) => Promise<void>;
}

export interface TopUpRequest {
  orgId: string;
  provider: PaymentProvider;
  amountMicros: number;
  link: NewPayment['link'];
  /** Where the provider sends the human back; `?cancelled=1` is added for a cancel. */
  returnUrl: (paymentId: string) => string;
}

export type TopUpStart =
  /** The link was spent already: nothing started. */
  | { kind: 'link_spent' }
  /** The provider could not start it: the payment is failed, nothing was charged. */
  | { kind: 'provider_failed' }
  | { kind: 'redirect'; url: string }
  /** Test mode: the human confirms on our page with this one-time token. */
  | { kind: 'confirm'; paymentId: string; confirmToken: string | undefined };

export async function startTopUp(deps: TopUpDeps, input: TopUpRequest): Promise<TopUpStart> {
  const { provider, orgId, amountMicros } = input;
  const confirmToken = provider.name === 'test' ? generateToken('tup_') : undefined;
  const payment = await deps.db.transaction((trx) =>
    startPayment(trx, {
      orgId,
      provider: provider.name,
      amountMicros,
      confirmTokenHash: confirmToken ? hashToken(confirmToken) : null,
      link: input.link,
    }),
  );
  if (!payment) return { kind: 'link_spent' };
  const back = input.returnUrl(payment.id);
  let start;
  try {
    start = await provider.startCheckout({
      paymentId: payment.id,
      orgId,
      amountMicros,
      successUrl: back,
      cancelUrl: `${back}?cancelled=1`,
    });
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    await markPaymentFailed(deps.db, payment.id, err.message);
    return { kind: 'provider_failed' };
  }
  if (start.kind === 'confirm') return { kind: 'confirm', paymentId: payment.id, confirmToken };
  await setPaymentExternalId(deps.db, payment.id, start.externalId);
  return { kind: 'redirect', url: start.url };
}

/**
 * Credits the payment once with what the provider says was paid; a repeat credits nothing and answers the state.
 * When it credited now, the auto-recharge check runs (the catch-up may have left the wallet below the threshold).
 */
export async function creditTopUp(deps: TopUpDeps, input: { paymentId: string; amountMicros: number }): Promise<Credit | undefined> {
  const credit = await deps.db.transaction((trx) => creditPayment(trx, input.paymentId, input.amountMicros));
  if (credit?.credited && deps.checkAutoRecharge) await deps.checkAutoRecharge(credit.payment.org_id);
  return credit;
}

/** Test mode: the human's confirmation credits the payment's own amount, then the wallet is checked either way. */
export async function confirmTopUp(deps: TopUpDeps, input: { paymentId: string; amountMicros: number; orgId: string }): Promise<Credit> {
  const credit = await deps.db.transaction((trx) => creditPayment(trx, input.paymentId, input.amountMicros));
  await deps.checkAutoRecharge?.(input.orgId);
  return credit!;
}

/** The provider reports the payment failed (or expired): a pending payment becomes failed with the reason. */
export async function failTopUp(deps: Pick<TopUpDeps, 'db'>, input: { paymentId: string; reason: string }): Promise<void> {
  await markPaymentFailed(deps.db, input.paymentId, input.reason);
}

/** The provider's reference of a payment started elsewhere (an auto-recharge charge). */
export async function recordTopUpReference(deps: Pick<TopUpDeps, 'db'>, input: { paymentId: string; externalId: string }): Promise<void> {
  await setPaymentExternalId(deps.db, input.paymentId, input.externalId);
}

/** When a credited top-up's funds become available in the provider balance (payout transfers wait for it). */
export async function recordFundsAvailableAt(deps: Pick<TopUpDeps, 'db'>, input: { paymentId: string; at: Date }): Promise<void> {
  await setPaymentAvailableAt(deps.db, input.paymentId, input.at);
}
