// oidc-provider's adapter over PostgreSQL (db/oauth-store.ts, db/oauth-store-writes.ts). Clients registered through RFC 7591 live in
// oauth_clients; everything else in oauth_store. Bearer-like ids (codes and tokens) are stored by their SHA-256
// digest, like every other credential here, so a database leak yields no live token.
import type { Knex } from 'knex';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { findOauthClient, findOauthItem, findOauthItemByUid, findOauthItemByUserCode } from './oauth-store.js';
import {
  consumeOauthItem,
  deleteOauthClient,
  destroyOauthItem,
  destroyOauthItemsOfGrant,
  purgeExpiredOauthItems,
  saveOauthClient,
  upsertOauthItem,
} from './oauth-store-writes.js';
import { hashToken } from '../lib/credentials.js';

const DIGESTED = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'RegistrationAccessToken',
]);

/** The stored id of a token-like model's id. */
const storedId = (model: string, id: string): string => (DIGESTED.has(model) ? hashToken(id) : id);

export function adapterFactory(db: Knex): new (name: string) => Adapter {
  return class PgAdapter implements Adapter {
    constructor(readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      if (this.name === 'Client') return saveOauthClient(db, id, payload);
      await upsertOauthItem(db, this.name, storedId(this.name, id), payload, expiresIn);
      // No scheduler needed: about one write in a hundred also clears a batch of long-expired rows.
      if (Math.random() < 0.01) void purgeExpiredOauthItems(db).catch(() => undefined);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.name === 'Client') return await findOauthClient(db, id);
      return await findOauthItem(db, this.name, storedId(this.name, id));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return await findOauthItemByUid(db, this.name, uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return await findOauthItemByUserCode(db, this.name, userCode);
    }

    async consume(id: string): Promise<void> {
      await consumeOauthItem(db, this.name, storedId(this.name, id));
    }

    async destroy(id: string): Promise<void> {
      if (this.name === 'Client') return deleteOauthClient(db, id);
      await destroyOauthItem(db, this.name, storedId(this.name, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await destroyOauthItemsOfGrant(db, grantId, this.name);
    }
  };
}
