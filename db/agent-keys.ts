// Agent keys: `it_mcp_...`, shown once, stored as a digest, scoped, revocable.
import type { Knex } from 'knex';
import { AGENT_KEY_PREFIX, displayPrefix, generateToken, hashToken } from '../lib/credentials.js';
import type { Scope } from '../lib/scopes.js';

export interface NewAgentKey {
  orgId: string;
  name: string;
  scopes: readonly Scope[];
  createdByUserId?: string | null;
  expiresAt?: Date | null;
}

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

export interface ActiveAgentKey {
  id: string;
  orgId: string;
  scopes: string[];
  createdByUserId: string | null;
}

export async function findActiveAgentKeyByHash(db: Knex, hash: string): Promise<ActiveAgentKey | undefined> {
  const row = await db('agent_keys')
    .where('key_hash', hash)
    .whereNull('revoked_at')
    .whereRaw('(expires_at is null or expires_at > now())')
    .first<{ id: string; org_id: string; scopes: string[]; created_by_user_id: string | null } | undefined>(
      'id',
      'org_id',
      'scopes',
      'created_by_user_id',
    );
  return row ? { id: row.id, orgId: row.org_id, scopes: row.scopes, createdByUserId: row.created_by_user_id } : undefined;
}

/** Last-used is informational: written at most once a minute per key so the hot path stays a read. */
export async function touchAgentKey(db: Knex, id: string): Promise<void> {
  await db('agent_keys')
    .where('id', id)
    .whereRaw("(last_used_at is null or last_used_at < now() - interval '1 minute')")
    .update({ last_used_at: db.fn.now() });
}

export interface AgentKeyListItem {
  id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function listAgentKeys(db: Knex, orgIds: readonly string[]): Promise<(AgentKeyListItem & { org_id: string })[]> {
  if (orgIds.length === 0) return [];
  return db('agent_keys')
    .whereIn('org_id', orgIds)
    .orderBy('created_at', 'desc')
    .select<(AgentKeyListItem & { org_id: string })[]>(
      'id',
      'org_id',
      'name',
      'key_prefix',
      'scopes',
      'created_at',
      'last_used_at',
      'revoked_at',
    );
}

/** Revokes a live key of one of these organizations; false when there is none (unknown, other org, already revoked). */
export async function revokeAgentKeyInOrgs(db: Knex, id: string, orgIds: readonly string[]): Promise<boolean> {
  if (orgIds.length === 0) return false;
  return (
    (await db('agent_keys').where('id', id).whereIn('org_id', orgIds).whereNull('revoked_at').update({ revoked_at: db.fn.now() })) === 1
  );
}
