// Writes of one-time account tokens: issuing one and spending it (reads stay in db/account-tokens.ts). Spending reads
// and marks the token in one statement, so a token works once even when clicked twice at the same moment.
import type { Knex } from 'knex';
import type { AccountTokenPurpose, AccountTokenRow, MembershipRole } from '../schema/types.js';

export interface NewAccountToken {
  purpose: AccountTokenPurpose;
  tokenHash: string;
  email: string;
  userId?: string | null;
  orgId?: string | null;
  role?: MembershipRole | null;
  createdByUserId?: string | null;
  ttlSeconds: number;
}

export async function createAccountToken(db: Knex, t: NewAccountToken): Promise<string> {
  const [row] = await db('account_tokens')
    .insert({
      purpose: t.purpose,
      token_hash: t.tokenHash,
      email: t.email,
      user_id: t.userId ?? null,
      org_id: t.orgId ?? null,
      role: t.role ?? null,
      created_by_user_id: t.createdByUserId ?? null,
      expires_at: db.raw('now() + make_interval(secs => ?)', [t.ttlSeconds]),
    })
    .returning<{ id: string }[]>('id');
  return row!.id;
}

/** Spends a live token; undefined when it is unknown, used or expired. */
export async function spendAccountToken(db: Knex, purpose: AccountTokenPurpose, tokenHash: string): Promise<AccountTokenRow | undefined> {
  const [row] = await db('account_tokens')
    .where({ purpose, token_hash: tokenHash })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning<AccountTokenRow[]>('*');
  return row;
}
