// Creators' payout accounts (payout_accounts, migration 0037): one per creator (creators are global), at the payout
// provider it was opened with, with the state the provider last reported (a read on return from onboarding, then
// account.updated). Readiness is lib/payout-readiness.ts. These are the reads; the writes are
// db/payout-accounts-writes.ts (actions/payout-accounts.ts).
import type { Knex } from 'knex';
import type { AccountState } from '../lib/payout-account.js';
import type { PayoutAccountRow, PayoutProviderName } from '../schema/types.js';

export const stateOfRow = (r: PayoutAccountRow): AccountState => ({
  transfersActive: r.transfers_active,
  payoutsEnabled: r.payouts_enabled,
  requirementsDue: r.requirements_due,
  disabledReason: r.disabled_reason,
});

export async function findPayoutAccount(db: Knex, creatorId: string): Promise<PayoutAccountRow | undefined> {
  return db('payout_accounts').where('creator_id', creatorId).first<PayoutAccountRow | undefined>();
}

export async function creatorOfAccount(db: Knex, provider: PayoutProviderName, externalId: string): Promise<string | undefined> {
  const row = await db('payout_accounts')
    .where({ provider, external_id: externalId })
    .first<{ creator_id: string } | undefined>('creator_id');
  return row?.creator_id;
}

/** The payout account state of each of these creators that has an account (a payout run decides who is paid). */
export async function accountStatesOf(db: Knex, creatorIds: readonly string[]): Promise<Map<string, AccountState>> {
  if (creatorIds.length === 0) return new Map();
  const rows = await db('payout_accounts').whereIn('creator_id', creatorIds).select<PayoutAccountRow[]>('*');
  return new Map(rows.map((r) => [r.creator_id, stateOfRow(r)]));
}
