// Agent keys: `it_mcp_...`, shown once, stored as a digest, scoped, revocable.
import type { Knex } from 'knex';
import { AGENT_KEY_PREFIX, displayPrefix, generateToken, hashToken } from '../lib/credentials.js';
import type { Scope } from '../lib/scopes.js';

export interface NewAgentKey { orgId: string; name: string; scopes: readonly Scope[]; createdByUserId?: string | null; expiresAt?: Date | null }

export async function createAgentKey(db: Knex, k: NewAgentKey): Promise<{ id: string; key: string }> {
  const key = generateToken(AGENT_KEY_PREFIX);
  const [row] = await db('agent_keys').insert({
    org_id: k.orgId,
    name: k.name,
    key_hash: hashToken(key),
    key_prefix: displayPrefix(key).replace('…', ''),
    scopes: [...k.scopes],
    created_by_user_id: k.createdByUserId ?? null,
    expires_at: k.expiresAt ?? null,
  }).returning<{ id: string }[]>(['id']);
  return { id: row!.id, key };
}

export async function revokeAgentKey(db: Knex, id: string): Promise<boolean> {
  return (await db('agent_keys').where('id', id).whereNull('revoked_at').update({ revoked_at: db.fn.now() })) === 1;
}
