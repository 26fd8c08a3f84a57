// One-time account tokens sent by email (migration 0021): verification, password reset, teammate invitations.
// The caller generates the token and passes its digest; spending reads and marks it in one statement, so a token
// works once even when clicked twice at the same moment.
import type { Knex } from 'knex';
import type { AccountTokenPurpose, AccountTokenRow, MembershipRole } from '../schema/types.js';

/** The live (unused, unexpired) token of this purpose, without spending it (to show a form first). */
export async function findLiveAccountToken(
  db: Knex,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<AccountTokenRow | undefined> {
  return db('account_tokens')
    .where({ purpose, token_hash: tokenHash })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .first<AccountTokenRow | undefined>();
}

export interface PendingInvite {
  id: string;
  email: string;
  role: MembershipRole;
  created_at: Date;
  expires_at: Date;
}

export async function listPendingInvites(db: Knex, orgId: string): Promise<PendingInvite[]> {
  return db('account_tokens')
    .where({ org_id: orgId, purpose: 'invite' })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .orderBy('created_at', 'desc')
    .select<PendingInvite[]>('id', 'email', 'role', 'created_at', 'expires_at');
}
