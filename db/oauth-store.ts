// Storage of the authorization server (oidc-provider's adapter API, api/oauth/adapter.ts): registered clients in
// oauth_clients, every other model (sessions, interactions, codes, tokens, grants) in oauth_store. Token-like ids
// arrive here already digested by the adapter, so no live token is ever stored.
import type { Knex } from 'knex';

type Payload = Record<string, unknown>;

export async function saveOauthClient(db: Knex, clientId: string, metadata: Payload): Promise<void> {
  await db('oauth_clients').insert({ client_id: clientId, metadata }).onConflict('client_id').merge({ metadata });
}

export async function findOauthClient(db: Knex, clientId: string): Promise<Payload | undefined> {
  const row = await db('oauth_clients').where('client_id', clientId).first<{ metadata: Payload } | undefined>('metadata');
  return row?.metadata;
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

async function findBy(db: Knex, model: string, column: 'id' | 'uid' | 'user_code', value: string): Promise<Payload | undefined> {
  const row = await db('oauth_store')
    .where({ model, [column]: value })
    .andWhere((q) => {
      void q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now());
    })
    .first<{ payload: Payload; consumed_at: Date | null } | undefined>('payload', 'consumed_at');
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
}

export const findOauthItem = (db: Knex, model: string, id: string) => findBy(db, model, 'id', id);
export const findOauthItemByUid = (db: Knex, model: string, uid: string) => findBy(db, model, 'uid', uid);
export const findOauthItemByUserCode = (db: Knex, model: string, code: string) => findBy(db, model, 'user_code', code);

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

/** The payload of a live access token, by the digest of the token. */
export async function findLiveAccessToken(db: Knex, tokenDigest: string): Promise<Payload | undefined> {
  return findOauthItem(db, 'AccessToken', tokenDigest);
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
