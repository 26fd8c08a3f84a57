// Spending a signed link (reads stay in db/signed-links.ts).
import type { Knex } from 'knex';

/** Records the nonce; false when it was spent already (the link is single use). */
export async function spendSignedLink(
  db: Knex | Knex.Transaction,
  u: { nonce: string; purpose: string; orgId: string; expiresAt: Date },
): Promise<boolean> {
  const rows = await db('signed_link_uses')
    .insert({ nonce: u.nonce, purpose: u.purpose, org_id: u.orgId, expires_at: u.expiresAt })
    .onConflict('nonce')
    .ignore()
    .returning('nonce');
  return rows.length === 1;
}
