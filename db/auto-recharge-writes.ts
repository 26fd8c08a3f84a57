// Auto-recharge's writes (migration 0020), run by actions/auto-recharge.ts: the settings on the organization, the
// Stripe setups (Checkout in setup mode) and the recharge payments (kind `auto_recharge`, credited like any top-up
// by actions/top-up.ts). The reads are db/auto-recharge.ts.
import type { Knex } from 'knex';
import type { AutoRechargeSetupRow, OrganizationRow, PaymentProviderName, PaymentRow } from '../schema/types.js';
import { savedMethodOfRow, type SavedMethodRow } from './auto-recharge.js';
import { lockOrganization } from './wallet-ledger-writes.js';

export interface EnableInput {
  provider: PaymentProviderName;
  thresholdMicros: number;
  amountMicros: number;
  method: SavedMethodRow;
}

function enabledColumns(db: Knex, e: EnableInput): Record<string, unknown> {
  return {
    auto_recharge_enabled: true,
    auto_recharge_threshold_micros: e.thresholdMicros,
    auto_recharge_amount_micros: e.amountMicros,
    auto_recharge_provider: e.provider,
    auto_recharge_customer_id: e.method.customerId,
    auto_recharge_payment_method_id: e.method.paymentMethodId,
    auto_recharge_payment_method_label: e.method.label,
    auto_recharge_disabled_reason: null,
    auto_recharge_updated_at: db.fn.now(),
  };
}

export async function enableAutoRecharge(db: Knex, orgId: string, e: EnableInput): Promise<void> {
  await db('organizations').where('id', orgId).update(enabledColumns(db, e));
}

/**
 * Turns auto-recharge off: by the human (no reason) or by the service after repeated failures (the reason is
 * shown). The saved method is forgotten; the Stripe customer is kept so a new setup reuses it.
 */
export async function disableAutoRecharge(db: Knex, orgId: string, reason: string | null): Promise<void> {
  await db('organizations')
    .where('id', orgId)
    .update({
      auto_recharge_enabled: false,
      auto_recharge_payment_method_id: null,
      auto_recharge_payment_method_label: null,
      auto_recharge_disabled_reason: reason?.slice(0, 500) ?? null,
      auto_recharge_updated_at: db.fn.now(),
    });
}

// ---- Stripe setups (Checkout in setup mode) ---------------------------------------------------------------------

export async function startAutoRechargeSetup(
  db: Knex,
  s: { orgId: string; thresholdMicros: number; amountMicros: number },
): Promise<AutoRechargeSetupRow> {
  const [row] = await db('auto_recharge_setups')
    .insert({ org_id: s.orgId, provider: 'stripe', threshold_micros: s.thresholdMicros, amount_micros: s.amountMicros })
    .returning<AutoRechargeSetupRow[]>('*');
  return row!;
}

/** The Checkout Session of a started setup, and the Stripe customer it saves the card on (kept for later setups). */
export async function recordSetupSession(trx: Knex.Transaction, setupId: string, sessionId: string, customerId: string): Promise<void> {
  const [setup] = await trx('auto_recharge_setups')
    .where('id', setupId)
    .update({ external_id: sessionId })
    .returning<AutoRechargeSetupRow[]>('*');
  if (setup) await trx('organizations').where('id', setup.org_id).update({ auto_recharge_customer_id: customerId });
}

export async function failAutoRechargeSetup(db: Knex, setupId: string, failure: string): Promise<void> {
  await db('auto_recharge_setups')
    .where({ id: setupId, status: 'pending' })
    .update({ status: 'failed', failure: failure.slice(0, 500) });
}

/** Completes a pending setup once (a redelivered webhook changes nothing): the org's settings take the saved card. */
export async function completeAutoRechargeSetup(trx: Knex.Transaction, setupId: string, method: SavedMethodRow): Promise<boolean> {
  const setup = await trx('auto_recharge_setups').where('id', setupId).forUpdate().first<AutoRechargeSetupRow | undefined>();
  if (!setup || setup.status !== 'pending') return false;
  await trx('auto_recharge_setups').where('id', setupId).update({ status: 'completed', completed_at: trx.fn.now() });
  await trx('organizations')
    .where('id', setup.org_id)
    .update(
      enabledColumns(trx, { provider: 'stripe', thresholdMicros: setup.threshold_micros, amountMicros: setup.amount_micros, method }),
    );
  return true;
}

/** A recharge still waiting for the provider this long blocks new ones (its webhook credits or fails it). */
const PENDING_BLOCKS_MINUTES = 60;

export type RechargeStart = { started: true; payment: PaymentRow; method: SavedMethodRow } | { started: false; reason: string };

/**
 * Under the organization lock: decides whether a recharge is due now and, if so, records its payment, keyed on the
 * workflow attempt (`requestKey`) so a retried activity gets the same payment back.
 */
export async function beginAutoRecharge(trx: Knex.Transaction, orgId: string, requestKey: string): Promise<RechargeStart> {
  const totals = await lockOrganization(trx, orgId);
  const org = await trx('organizations').where('id', orgId).first<OrganizationRow | undefined>();
  const method = org ? savedMethodOfRow(org) : undefined;
  const existing = await trx('payments').where('request_key', requestKey).first<PaymentRow | undefined>();
  if (existing) {
    if (method && existing.status === 'pending') return { started: true, payment: existing, method };
    if (existing.status === 'pending')
      await trx('payments').where('id', existing.id).update({ status: 'failed', failure: 'auto-recharge was turned off' });
    return { started: false, reason: `recharge ${existing.id} is ${existing.status === 'pending' ? 'failed' : existing.status}` };
  }
  if (
    !org?.auto_recharge_enabled ||
    !method ||
    org.auto_recharge_threshold_micros === null ||
    org.auto_recharge_amount_micros === null ||
    !org.auto_recharge_provider
  ) {
    return { started: false, reason: 'auto-recharge is off' };
  }
  if (totals.safeAvailableMicros >= org.auto_recharge_threshold_micros)
    return { started: false, reason: 'the safe balance is at or above the threshold' };
  const pending = await trx('payments')
    .where({ org_id: orgId, kind: 'auto_recharge', status: 'pending' })
    .where('created_at', '>', trx.raw(`now() - interval '${PENDING_BLOCKS_MINUTES} minutes'`))
    .first('id');
  if (pending) return { started: false, reason: `recharge ${pending.id} is still waiting for the payment provider` };
  const [payment] = await trx('payments')
    .insert({
      org_id: orgId,
      provider: org.auto_recharge_provider,
      kind: 'auto_recharge',
      amount_micros: org.auto_recharge_amount_micros,
      request_key: requestKey,
    })
    .returning<PaymentRow[]>('*');
  return { started: true, payment: payment!, method };
}
