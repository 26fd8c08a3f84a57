// Auto-recharge (migration 0020): the human's settings and saved payment method on the organization, the Stripe
// setups waiting for their webhook, and the recharges themselves, which are payments of kind `auto_recharge`
// credited through creditPayment like any top-up. Only a human's page or the service's own workflow writes here.
import type { Knex } from 'knex';
import type { AutoRechargeSetupRow, OrganizationRow, PaymentProviderName, PaymentRow } from '../schema/types.js';
import { lockOrganization } from './wallet-ledger.js';

export interface SavedMethodRow {
  customerId: string | null;
  paymentMethodId: string;
  label: string;
}

export interface AutoRechargeSettings {
  enabled: boolean;
  thresholdMicros: number | null;
  amountMicros: number | null;
  provider: PaymentProviderName | null;
  paymentMethod: string | null;
  disabledReason: string | null;
  updatedAt: Date | null;
  /** The latest recharge: what the wallet and the page show as the last result. */
  last: Pick<PaymentRow, 'id' | 'status' | 'amount_micros' | 'credited_micros' | 'failure' | 'created_at' | 'credited_at'> | null;
}

export async function findAutoRechargeSettings(db: Knex, orgId: string): Promise<AutoRechargeSettings | undefined> {
  const org = await db('organizations').where('id', orgId).first<OrganizationRow | undefined>();
  if (!org) return undefined;
  const last = await db('payments')
    .where({ org_id: orgId, kind: 'auto_recharge' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<AutoRechargeSettings['last'] | undefined>(
      'id',
      'status',
      'amount_micros',
      'credited_micros',
      'failure',
      'created_at',
      'credited_at',
    );
  return {
    enabled: org.auto_recharge_enabled,
    thresholdMicros: org.auto_recharge_threshold_micros,
    amountMicros: org.auto_recharge_amount_micros,
    provider: org.auto_recharge_provider,
    paymentMethod: org.auto_recharge_payment_method_label,
    disabledReason: org.auto_recharge_disabled_reason,
    updatedAt: org.auto_recharge_updated_at,
    last: last ?? null,
  };
}

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
export async function recordSetupSession(db: Knex, setupId: string, sessionId: string, customerId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const [setup] = await trx('auto_recharge_setups')
      .where('id', setupId)
      .update({ external_id: sessionId })
      .returning<AutoRechargeSetupRow[]>('*');
    if (setup) await trx('organizations').where('id', setup.org_id).update({ auto_recharge_customer_id: customerId });
  });
}

export async function failAutoRechargeSetup(db: Knex, setupId: string, failure: string): Promise<void> {
  await db('auto_recharge_setups')
    .where({ id: setupId, status: 'pending' })
    .update({ status: 'failed', failure: failure.slice(0, 500) });
}

export async function findAutoRechargeSetup(db: Knex, by: { id?: string; externalId?: string }): Promise<AutoRechargeSetupRow | undefined> {
  if (by.externalId) {
    const row = await db('auto_recharge_setups').where('external_id', by.externalId).first<AutoRechargeSetupRow | undefined>();
    if (row) return row;
  }
  return by.id ? db('auto_recharge_setups').where('id', by.id).first<AutoRechargeSetupRow | undefined>() : undefined;
}

/** Completes a pending setup once (a redelivered webhook changes nothing): the org's settings take the saved card. */
export async function completeAutoRechargeSetup(db: Knex, setupId: string, method: SavedMethodRow): Promise<boolean> {
  return db.transaction(async (trx) => {
    const setup = await trx('auto_recharge_setups').where('id', setupId).forUpdate().first<AutoRechargeSetupRow | undefined>();
    if (!setup || setup.status !== 'pending') return false;
    await trx('auto_recharge_setups').where('id', setupId).update({ status: 'completed', completed_at: trx.fn.now() });
    await trx('organizations')
      .where('id', setup.org_id)
      .update(
        enabledColumns(trx, { provider: 'stripe', thresholdMicros: setup.threshold_micros, amountMicros: setup.amount_micros, method }),
      );
    return true;
  });
}

// ---- When to recharge, and the recharge payments ----------------------------------------------------------------

const LOW_WALLET = `
  select o.id from organizations o
  left join lateral (select balance_after_micros - reserved_after_micros as safe from wallet_ledger
                     where org_id = o.id order by id desc limit 1) w on true
  where o.auto_recharge_enabled and coalesce(w.safe, 0) < o.auto_recharge_threshold_micros`;

/** The organization, when auto-recharge is on and its safe balance is below the threshold (one indexed read). */
export async function lowWalletOrg(db: Knex, by: { orgId: string } | { conversionId: string }): Promise<string | undefined> {
  const { rows } =
    'orgId' in by
      ? await db.raw<{ rows: { id: string }[] }>(`${LOW_WALLET} and o.id = ?`, [by.orgId])
      : await db.raw<{ rows: { id: string }[] }>(`${LOW_WALLET} and o.id = (select org_id from conversions where id = ?)`, [
          by.conversionId,
        ]);
  return rows[0]?.id;
}

/** A recharge still waiting for the provider this long blocks new ones (its webhook credits or fails it). */
const PENDING_BLOCKS_MINUTES = 60;

export type RechargeStart = { started: true; payment: PaymentRow; method: SavedMethodRow } | { started: false; reason: string };

/**
 * Under the organization lock: decides whether a recharge is due now and, if so, records its payment, keyed on the
 * workflow attempt (`requestKey`) so a retried activity gets the same payment back.
 */
export async function beginAutoRecharge(db: Knex, orgId: string, requestKey: string): Promise<RechargeStart> {
  return db.transaction(async (trx) => {
    const totals = await lockOrganization(trx, orgId);
    const org = await trx('organizations').where('id', orgId).first<OrganizationRow | undefined>();
    const method =
      org && org.auto_recharge_payment_method_id
        ? {
            customerId: org.auto_recharge_customer_id,
            paymentMethodId: org.auto_recharge_payment_method_id,
            label: org.auto_recharge_payment_method_label ?? '',
          }
        : undefined;
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
  });
}
