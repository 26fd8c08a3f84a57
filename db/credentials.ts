// Look-ups of stored credential digests: which app, agent key or session a presented token belongs to.
// Only digests are queried; the token itself never reaches SQL or logs.
import type { Knex } from 'knex';

export interface AppCredentialMatch { appId: string; orgId: string }

type AppCredentialColumn = 'sdk_key_hash' | 'webhook_secret_hash' | 'purchase_api_key_hash';

export async function findAppByCredentialHash(db: Knex, column: AppCredentialColumn, hash: string): Promise<AppCredentialMatch | undefined> {
  const row = await db('apps').where(column, hash).first<{ id: string; org_id: string } | undefined>('id', 'org_id');
  return row ? { appId: row.id, orgId: row.org_id } : undefined;
}

/** The stored webhook secret digest of an app, for the per-app webhook URL (which names the app itself). */
export async function findAppWebhookSecretHash(db: Knex, appId: string): Promise<{ appId: string; hash: string } | undefined> {
  const row = await db('apps').where('id', appId).first<{ id: string; webhook_secret_hash: string } | undefined>('id', 'webhook_secret_hash');
  return row ? { appId: row.id, hash: row.webhook_secret_hash } : undefined;
}

export interface ActiveAgentKey { id: string; orgId: string; scopes: string[]; createdByUserId: string | null }

export async function findActiveAgentKeyByHash(db: Knex, hash: string): Promise<ActiveAgentKey | undefined> {
  const row = await db('agent_keys')
    .where('key_hash', hash)
    .whereNull('revoked_at')
    .whereRaw('(expires_at is null or expires_at > now())')
    .first<{ id: string; org_id: string; scopes: string[]; created_by_user_id: string | null } | undefined>('id', 'org_id', 'scopes', 'created_by_user_id');
  return row ? { id: row.id, orgId: row.org_id, scopes: row.scopes, createdByUserId: row.created_by_user_id } : undefined;
}

/** Last-used is informational: written at most once a minute per key so the hot path stays a read. */
export async function touchAgentKey(db: Knex, id: string): Promise<void> {
  await db('agent_keys').where('id', id)
    .whereRaw("(last_used_at is null or last_used_at < now() - interval '1 minute')")
    .update({ last_used_at: db.fn.now() });
}

export interface ActiveSession { id: string; userId: string; orgIds: string[] }

export async function findActiveSessionByHash(db: Knex, hash: string): Promise<ActiveSession | undefined> {
  const row = await db('sessions as s')
    .where('s.token_hash', hash)
    .whereNull('s.revoked_at')
    .andWhere('s.expires_at', '>', db.fn.now())
    .first<{ id: string; user_id: string } | undefined>('s.id', 's.user_id');
  if (!row) return undefined;
  const orgs = await db('memberships').where('user_id', row.user_id).pluck<string[]>('org_id');
  return { id: row.id, userId: row.user_id, orgIds: orgs };
}
