// The single-use record of signed dashboard links (a nonce is spent once).
import type { Knex } from 'knex';

export async function isSignedLinkUsed(db: Knex, nonce: string): Promise<boolean> {
  return (await db('signed_link_uses').where('nonce', nonce).first('nonce')) !== undefined;
}
