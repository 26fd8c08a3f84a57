// A dashboard organization's team (api/dashboard/account/team.tsx translates the forms): inviting a teammate by email and
// accepting the invitation, which spends its one-time token and adds the membership (creating the user when the
// address has no account yet) in one transaction.
import type { Knex } from 'knex';
import { spendAccountToken } from '../db/account-tokens-writes.js';
import { findOrganization } from '../db/organizations.js';
import { addMembership, createUser } from '../db/organizations-writes.js';
import type { MembershipRole } from '../schema/types.js';
import { accountTokenHash, sendAccountMail } from './account-mail.js';
import type { AccountDeps } from './accounts.js';

export async function inviteTeammate(
  deps: AccountDeps,
  input: { orgId: string; email: string; role: MembershipRole; invitedByUserId: string },
): Promise<void> {
  const org = await findOrganization(deps.db, input.orgId);
  await sendAccountMail(deps.db, deps.dashboardUrl, {
    purpose: 'invite',
    email: input.email,
    orgId: input.orgId,
    orgName: org?.name,
    role: input.role,
    createdByUserId: input.invitedByUserId,
  });
}

/**
 * Joins the invitation's organization: as `existingUserId` (signed in as the invited address), or as a new user with
 * `passwordHash`. False when the invitation is unknown, used or expired.
 */
export async function acceptInvitation(
  deps: { db: Knex },
  input: { token: string; existingUserId?: string; passwordHash?: string },
): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const row = await spendAccountToken(trx, 'invite', accountTokenHash(input.token));
    if (!row) return false;
    const userId =
      input.existingUserId ?? (await createUser(trx, { email: row.email, passwordHash: input.passwordHash!, emailVerified: true })).id;
    await addMembership(trx, row.org_id!, userId, row.role!);
    return true;
  });
}
