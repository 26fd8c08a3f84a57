// Wallet top-ups' writes (payments, migration 0018), in the caller's transaction (actions/top-up.ts). A payment
// starts in the same transaction that spends the signed top-up link, and is credited at most once: under the
// organization lock, one `topup` ledger entry keyed on the payment, then the catch-up that funds `unfunded`
// commissions oldest first with what the wallet can now hold. The reads are db/payments.ts.
import type { Knex } from 'knex';
import type { PaymentProviderName, PaymentRow } from '../schema/types.js';
import { fundUnfundedCommissions } from './commissions.js';
import { spendSignedLink } from './signed-links-writes.js';
import { type WalletTotals } from './wallet-ledger.js';
import { appendLedgerEntry, lockOrganization } from './wallet-ledger-writes.js';

export interface NewPayment {
  orgId: string;
  provider: PaymentProviderName;
  amountMicros: number;
  confirmTokenHash?: string | null;
  link: { nonce: string; purpose: string; expiresAt: Date };
}

/** Spends the link and records the pending payment together; undefined when the link was spent already. */
export async function startPayment(trx: Knex.Transaction, p: NewPayment): Promise<PaymentRow | undefined> {
  if (!(await spendSignedLink(trx, { nonce: p.link.nonce, purpose: p.link.purpose, orgId: p.orgId, expiresAt: p.link.expiresAt })))
    return undefined;
  const [row] = await trx('payments')
    .insert({
      org_id: p.orgId,
      provider: p.provider,
      amount_micros: p.amountMicros,
      confirm_token_hash: p.confirmTokenHash ?? null,
      link_nonce: p.link.nonce,
    })
    .returning<PaymentRow[]>('*');
  return row;
}

/** The provider's reference of a started payment (a Checkout Session id). */
export async function setPaymentExternalId(db: Knex, paymentId: string, externalId: string): Promise<void> {
  await db('payments').where('id', paymentId).update({ external_id: externalId });
}

export async function markPaymentFailed(db: Knex, id: string, failure: string): Promise<void> {
  await db('payments')
    .where({ id, status: 'pending' })
    .update({ status: 'failed', failure: failure.slice(0, 500) });
}

export interface Credit {
  credited: boolean;
  payment: PaymentRow;
  funded: number;
  wallet: WalletTotals;
}

/**
 * Credits the payment once with `amountMicros` (what the provider says was paid): the topup entry, the payment
 * marked succeeded and the catch-up, in the caller's transaction under the organization lock. A repeat (a redelivered
 * webhook, a double-clicked confirmation) credits nothing and answers the state.
 */
export async function creditPayment(trx: Knex.Transaction, paymentId: string, amountMicros: number): Promise<Credit | undefined> {
  const payment = await trx('payments').where('id', paymentId).forUpdate().first<PaymentRow | undefined>();
  if (!payment) return undefined;
  if (payment.status === 'succeeded') return { credited: false, payment, funded: 0, wallet: await lockOrganization(trx, payment.org_id) };
  await lockOrganization(trx, payment.org_id);
  await appendLedgerEntry(trx, {
    orgId: payment.org_id,
    entryType: 'topup',
    balanceDeltaMicros: amountMicros,
    reservedDeltaMicros: 0,
    idempotencyKey: `topup:payment:${payment.id}`,
    externalRef: payment.external_id ?? payment.id,
    memo: `${payment.provider} top-up`,
    createdBy: 'payment',
  });
  const [updated] = await trx('payments')
    .where('id', payment.id)
    .update({ status: 'succeeded', credited_micros: amountMicros, credited_at: trx.fn.now(), failure: null })
    .returning<PaymentRow[]>('*');
  const funded = await fundUnfundedCommissions(trx, payment.org_id);
  return { credited: true, payment: updated!, funded, wallet: await lockOrganization(trx, payment.org_id) };
}

/** When a credited top-up's funds become available in the platform's provider balance (Stripe's `available_on`). */
export async function setPaymentAvailableAt(db: Knex, paymentId: string, availableAt: Date): Promise<void> {
  await db('payments').where('id', paymentId).update({ available_at: availableAt });
}
