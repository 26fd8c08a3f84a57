// Storage of the authorization server (oidc-provider's adapter API, db/oauth-adapter.ts): registered clients in
// oauth_clients, every other model (sessions, interactions, codes, tokens, grants) in oauth_store. Token-like ids
// arrive here already digested by the adapter, so no live token is ever stored.
import type { Knex } from 'knex';

export type Payload = Record<string, unknown>;

export async function findOauthClient(db: Knex, clientId: string): Promise<Payload | undefined> {
  const row = await db('oauth_clients').where('client_id', clientId).first<{ metadata: Payload } | undefined>('metadata');
  return row?.metadata;
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

/** The payload of a live access token, by the digest of the token. */
export async function findLiveAccessToken(db: Knex, tokenDigest: string): Promise<Payload | undefined> {
  return findOauthItem(db, 'AccessToken', tokenDigest);
}
