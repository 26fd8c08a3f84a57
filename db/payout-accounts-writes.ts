// Creators' payout accounts' writes (payout_accounts, migration 0037; db/payout-accounts.ts says what a row holds):
// the account the provider opened, and the state the provider last reported. Run by actions/payout-accounts.ts.
import type { Knex } from 'knex';
import type { AccountState } from '../clients/payouts/provider.js';
import type { PayoutAccountRow, PayoutProviderName } from '../schema/types.js';
import { findPayoutAccount } from './payout-accounts.js';

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
