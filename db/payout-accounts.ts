// Creators' payout accounts (payout_accounts, migration 0037): one per creator (creators are global), at the payout
// provider it was opened with, with the state the provider last reported (a read on return from onboarding, then
// account.updated). Readiness is lib/payout-readiness.ts.
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

/** Records the account the provider opened; a creator who already has one keeps it (answers the existing row). */
export async function savePayoutAccount(
  db: Knex,
  a: { creatorId: string; provider: PayoutProviderName; externalId: string; country: string },
): Promise<PayoutAccountRow> {
  await db('payout_accounts')
    .insert({ creator_id: a.creatorId, provider: a.provider, external_id: a.externalId, country: a.country })
    .onConflict('creator_id')
    .ignore();
  return (await findPayoutAccount(db, a.creatorId))!;
}

const stateColumns = (s: AccountState) => ({
  transfers_active: s.transfersActive,
  payouts_enabled: s.payoutsEnabled,
  requirements_due: JSON.stringify(s.requirementsDue),
  disabled_reason: s.disabledReason,
});

export async function updateAccountState(db: Knex, creatorId: string, s: AccountState): Promise<void> {
  await db('payout_accounts').where('creator_id', creatorId).update(stateColumns(s));
}

/** account.updated: the state of the account with this provider id; answers the creator, or undefined when not ours. */
export async function updateAccountStateByExternalId(
  db: Knex,
  provider: PayoutProviderName,
  externalId: string,
  s: AccountState,
): Promise<string | undefined> {
  const rows = await db('payout_accounts').where({ provider, external_id: externalId }).update(stateColumns(s), ['creator_id']);
  return (rows[0] as { creator_id: string } | undefined)?.creator_id;
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
