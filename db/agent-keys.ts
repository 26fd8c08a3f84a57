// Agent keys: `it_mcp_...`, shown once, stored as a digest, scoped, revocable.
import type { Knex } from 'knex';
import type { Scope } from '../lib/scopes.js';

export interface NewAgentKey {
  orgId: string;
  name: string;
  scopes: readonly Scope[];
  createdByUserId?: string | null;
  expiresAt?: Date | null;
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
