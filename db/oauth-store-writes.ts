// Writes of oidc-provider's storage (reads stay in db/oauth-store.ts): db/oauth-adapter.ts drives them for the
// library, and revoking a grant destroys its tokens (actions/oauth-grants.ts).
import type { Knex } from 'knex';
import type { Payload } from './oauth-store.js';

export async function saveOauthClient(db: Knex, clientId: string, metadata: Payload): Promise<void> {
  await db('oauth_clients').insert({ client_id: clientId, metadata }).onConflict('client_id').merge({ metadata });
}

export async function deleteOauthClient(db: Knex, clientId: string): Promise<void> {
  await db('oauth_clients').where('client_id', clientId).delete();
}

export async function upsertOauthItem(
  db: Knex,
  model: string,
  id: string,
  payload: Payload,
  expiresInSeconds: number | undefined,
): Promise<void> {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const row = {
    model,
    id,
    payload,
    grant_id: str(payload.grantId),
    user_code: str(payload.userCode),
    uid: str(payload.uid),
    expires_at: expiresInSeconds ? new Date(Date.now() + expiresInSeconds * 1000) : null,
  };
  await db('oauth_store').insert(row).onConflict(['model', 'id']).merge(['payload', 'grant_id', 'user_code', 'uid', 'expires_at']);
}

export async function consumeOauthItem(db: Knex, model: string, id: string): Promise<void> {
  await db('oauth_store').where({ model, id }).update({ consumed_at: db.fn.now() });
}

export async function destroyOauthItem(db: Knex, model: string, id: string): Promise<void> {
  await db('oauth_store').where({ model, id }).delete();
}

/** Every code and token of a grant (and the grant itself when `includeGrant`): revocation. */
export async function destroyOauthItemsOfGrant(db: Knex, grantId: string, only?: string): Promise<void> {
  await db('oauth_store')
    .where((q) => {
      void q.where('grant_id', grantId);
      if (!only)
        void q.orWhere((g) => {
          void g.where({ model: 'Grant', id: grantId });
        });
    })
    .modify((q) => {
      if (only) void q.andWhere('model', only);
    })
    .delete();
}

/** Deletes up to `limit` rows that expired more than a day ago (called now and then by the adapter). */
export async function purgeExpiredOauthItems(db: Knex, limit = 1000): Promise<number> {
  return db('oauth_store')
    .whereIn(
      ['model', 'id'],
      db('oauth_store').select('model', 'id').where('expires_at', '<', db.raw("now() - interval '1 day'")).limit(limit),
    )
    .delete();
}
