// Auto-recharge (migration 0020), the reads: the human's settings and saved payment method on the organization
// (every `organizations.auto_recharge_*` column is read here), the Stripe setups waiting for their webhook, and
// whether a wallet is below its threshold. The writes are db/auto-recharge-writes.ts, run by actions/auto-recharge.ts
// (a human's page, the Stripe webhook, the service's own workflow).
import type { Knex } from 'knex';
import type { AutoRechargeSetupRow, OrganizationRow, PaymentProviderName, PaymentRow } from '../schema/types.js';

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

/** The saved method of an organization row, when one is saved (auto-recharge on, or turned off by the human). */
export function savedMethodOfRow(
  org: Pick<OrganizationRow, 'auto_recharge_customer_id' | 'auto_recharge_payment_method_id' | 'auto_recharge_payment_method_label'>,
): SavedMethodRow | undefined {
  return org.auto_recharge_payment_method_id
    ? {
        customerId: org.auto_recharge_customer_id,
        paymentMethodId: org.auto_recharge_payment_method_id,
        label: org.auto_recharge_payment_method_label ?? '',
      }
    : undefined;
}

/** The organization's saved payment method, which a recharge charges; undefined once auto-recharge was turned off. */
export async function savedMethodOf(db: Knex, orgId: string): Promise<SavedMethodRow | undefined> {
  const org = await db('organizations')
    .where('id', orgId)
    .first<
      | Pick<OrganizationRow, 'auto_recharge_customer_id' | 'auto_recharge_payment_method_id' | 'auto_recharge_payment_method_label'>
      | undefined
    >('auto_recharge_customer_id', 'auto_recharge_payment_method_id', 'auto_recharge_payment_method_label');
  return org ? savedMethodOfRow(org) : undefined;
}

/** The provider's customer kept for the organization (a new card setup reuses it), if any. */
export async function savedCustomerOf(db: Knex, orgId: string): Promise<string | null> {
  const row = await db('organizations')
    .where('id', orgId)
    .first<{ auto_recharge_customer_id: string | null } | undefined>('auto_recharge_customer_id');
  return row?.auto_recharge_customer_id ?? null;
}

export async function findAutoRechargeSetup(db: Knex, by: { id?: string; externalId?: string }): Promise<AutoRechargeSetupRow | undefined> {
  if (by.externalId) {
    const row = await db('auto_recharge_setups').where('external_id', by.externalId).first<AutoRechargeSetupRow | undefined>();
    if (row) return row;
  }
  return by.id ? db('auto_recharge_setups').where('id', by.id).first<AutoRechargeSetupRow | undefined>() : undefined;
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
