// A creator's email (creators are one global row per person): what Stripe pre-fills on the payout account.
import type { Knex } from 'knex';

export async function creatorEmail(db: Knex, creatorId: string): Promise<{ exists: boolean; email: string | null }> {
  const row = await db('creators').where('id', creatorId).first<{ email: string | null } | undefined>('email');
  return { exists: Boolean(row), email: row?.email ?? null };
}
