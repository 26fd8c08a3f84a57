// An OAuth access token becomes the agent principal (api/auth/authenticate.ts registerTokenResolver): the token
// (looked up by digest, live, audience = the agent resource) and its grant (not revoked) give the user, the
// client, the organizations picked at consent that the user still belongs to, and the scopes both the token and
// the grant carry. The principal's id is the grant id, so a grant's calls share one tool-call window per client.
import { noteOauthGrantUse } from '../../actions/oauth-grants.js';
import type { Knex } from 'knex';
import { findActiveOauthGrant } from '../../db/oauth-grants.js';
import { findLiveAccessToken } from '../../db/oauth-store.js';
import type { Config } from '../../runtime/config.js';
import { hashToken } from '../../lib/credentials.js';
import type { Principal } from '../../lib/principal.js';
import { isScope } from '../../lib/scopes.js';
import { TtlCache } from '../../runtime/ttl-cache.js';
import { agentAudience } from './provider.js';

/** last_used_at is written at most once a minute per grant. */
const touched = new TtlCache<string, true>(60_000, 10_000);

export async function resolveOauthToken(db: Knex, token: string, config?: Config): Promise<Principal | undefined> {
  if (!config || token.length < 20 || token.length > 200) return undefined;
  const payload = await findLiveAccessToken(db, hashToken(token));
  if (!payload || payload.kind !== 'AccessToken') return undefined;
  const aud = payload.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(agentAudience(config))) return undefined;
  if (typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now()) return undefined;
  const grantId = payload.grantId;
  if (typeof grantId !== 'string') return undefined;
  const grant = await findActiveOauthGrant(db, grantId);
  if (!grant || grant.client_id !== payload.clientId) return undefined;
  const tokenScopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const scopes = tokenScopes.filter(isScope).filter((s) => grant.scopes.includes(s));
  if (!touched.get(grantId)) {
    touched.set(grantId, true);
    void noteOauthGrantUse({ db }, { grantId }).catch(() => undefined);
  }
  return {
    kind: 'agent',
    authMode: 'oauth',
    id: grantId,
    clientId: grant.client_id,
    orgIds: grant.live_org_ids,
    scopes,
    userId: grant.user_id,
  };
}
