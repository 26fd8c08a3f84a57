// Writes of agent keys (reads stay in db/agent-keys.ts): issuing one (only its digest is stored), revoking, last use.
import type { Knex } from 'knex';
import { AGENT_KEY_PREFIX, displayPrefix, generateToken, hashToken } from '../lib/credentials.js';
import { NewAgentKey } from './agent-keys.js';

export async function createAgentKey(db: Knex, k: NewAgentKey): Promise<{ id: string; key: string }> {
  const key = generateToken(AGENT_KEY_PREFIX);
  const [row] = await db('agent_keys')
    .insert({
      org_id: k.orgId,
      name: k.name,
      key_hash: hashToken(key),
      key_prefix: displayPrefix(key).replace('…', ''),
      scopes: [...k.scopes],
      created_by_user_id: k.createdByUserId ?? null,
      expires_at: k.expiresAt ?? null,
    })
    .returning<{ id: string }[]>(['id']);
  return { id: row!.id, key };
}

export async function revokeAgentKey(db: Knex, id: string): Promise<boolean> {
  return (await db('agent_keys').where('id', id).whereNull('revoked_at').update({ revoked_at: db.fn.now() })) === 1;
}

/** Last-used is informational: written at most once a minute per key so the hot path stays a read. */
export async function touchAgentKey(db: Knex, id: string): Promise<void> {
  await db('agent_keys')
    .where('id', id)
    .whereRaw("(last_used_at is null or last_used_at < now() - interval '1 minute')")
    .update({ last_used_at: db.fn.now() });
}

/** Revokes a live key of one of these organizations; false when there is none (unknown, other org, already revoked). */
export async function revokeAgentKeyInOrgs(db: Knex, id: string, orgIds: readonly string[]): Promise<boolean> {
  if (orgIds.length === 0) return false;
  return (
    (await db('agent_keys').where('id', id).whereIn('org_id', orgIds).whereNull('revoked_at').update({ revoked_at: db.fn.now() })) === 1
  );
}
