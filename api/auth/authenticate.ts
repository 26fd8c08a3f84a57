// The one middleware that turns a presented credential into a Principal, for every kind of credential
// (DESIGN.md "Auth and tenancy"). Which principal a route accepts is the guard's business, not this one's.
// Later credential kinds (OAuth access tokens) plug in through registerTokenResolver.
import { noteAgentKeyUse } from '../../actions/agent-keys.js';
import type { Knex } from 'knex';
import type { Config } from '../../runtime/config.js';
import { credentialKind, hashToken, parseBearer, type CredentialKind } from '../../lib/credentials.js';
import type { Principal } from '../../lib/principal.js';
import { isScope } from '../../lib/scopes.js';
import { TtlCache } from '../../runtime/ttl-cache.js';
import { findActiveAgentKeyByHash } from '../../db/agent-keys.js';
import { findActiveSessionByHash } from '../../db/sessions.js';
import { findActiveCreatorSessionByHash } from '../../db/creator-sessions.js';
import { findAppByCredentialHash } from '../../db/apps.js';
import type { Middleware } from '../context.js';

/** `config` lets a resolver check what depends on the deployment (an OAuth token's audience). */
export type TokenResolver = (db: Knex, token: string, config?: Config) => Promise<Principal | undefined>;

export const SESSION_COOKIE = 'svc_session';
/** The creator portal's own cookie (docs/creator-portal.md), set with the portal's path only. */
export const CREATOR_COOKIE = 'svc_creator';
/** Every page and form of the creator portal lives under this path. */
export const PORTAL_PATH = '/dashboard/creator';

export const isPortalPath = (path: string): boolean => path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`);

// Every app launch presents the SDK key: known keys are remembered for a minute (SDK keys are never rotated;
// unknown keys are always looked up, so a new app works at once).
const sdkKeys = new TtlCache<string, Principal>(60_000, 100_000);

const byKind: Record<CredentialKind, TokenResolver> = {
  sdk_key: async (db, token) => {
    const hash = hashToken(token);
    const cached = sdkKeys.get(hash);
    if (cached) return cached;
    const app = await findAppByCredentialHash(db, 'sdk_key_hash', hash);
    if (!app) return undefined;
    const principal: Principal = { kind: 'sdk', ...app };
    sdkKeys.set(hash, principal);
    return principal;
  },
  webhook_secret: async (db, token) => {
    const app = await findAppByCredentialHash(db, 'webhook_secret_hash', hashToken(token));
    return app && { kind: 'webhook', ...app };
  },
  purchase_api_key: async (db, token) => {
    const app = await findAppByCredentialHash(db, 'purchase_api_key_hash', hashToken(token));
    return app && { kind: 'purchase_api', ...app };
  },
  agent_key: async (db, token) => {
    const key = await findActiveAgentKeyByHash(db, hashToken(token));
    if (!key) return undefined;
    void noteAgentKeyUse({ db }, { keyId: key.id }).catch(() => undefined);
    return {
      kind: 'agent',
      authMode: 'agent_key',
      id: key.id,
      orgIds: [key.orgId],
      scopes: key.scopes.filter(isScope),
      ...(key.createdByUserId ? { userId: key.createdByUserId } : {}),
    };
  },
  session: async (db, token) => {
    const session = await findActiveSessionByHash(db, hashToken(token));
    return session && { kind: 'user', userId: session.userId, sessionId: session.id, orgIds: session.orgIds };
  },
  creator_session: async (db, token) => {
    const session = await findActiveCreatorSessionByHash(db, hashToken(token));
    return session && { kind: 'creator', creatorId: session.creatorId, sessionId: session.id };
  },
};

/** Tokens without a known prefix (OAuth access tokens) are offered to these, in order. */
const unprefixed: TokenResolver[] = [];

export function registerTokenResolver(resolver: TokenResolver): void {
  if (!unprefixed.includes(resolver)) unprefixed.push(resolver);
}

export async function resolvePrincipal(db: Knex, token: string, config?: Config): Promise<Principal | undefined> {
  const kind = credentialKind(token);
  if (kind) return byKind[kind](db, token);
  for (const resolve of unprefixed) {
    const principal = await resolve(db, token, config);
    if (principal) return principal;
  }
  return undefined;
}

/**
 * Routes that check their credential themselves: the per-app webhook secret, compared to that app's digest; the
 * OIDC token of a Google Pub/Sub push, verified against Google's certificates.
 */
const SELF_AUTHENTICATING = ['/api/webhooks/subprovider', '/api/webhooks/google-play/'];

export const authenticate: Middleware = async (ctx, next) => {
  if (SELF_AUTHENTICATING.some((prefix) => ctx.path.startsWith(prefix))) return next();
  const bearer = parseBearer(ctx.get('authorization'));
  // The portal reads only its own cookie, so a dashboard session never works there; elsewhere the dashboard's
  // cookie comes first, and a creator cookie presented anyway is a creator (which api/auth/surfaces.ts refuses).
  const cookie = bearer ? undefined : cookieCredential(ctx.cookies.get.bind(ctx.cookies), isPortalPath(ctx.path));
  const token = bearer ?? cookie?.token;
  if (token) {
    ctx.state.credentialPresented = true;
    // A cookie is only its own kind of session: it cannot smuggle another credential kind past the guard.
    const principal = await resolvePrincipal(ctx.deps.db, token, ctx.deps.config);
    if (principal && (bearer || principal.kind === cookie?.kind)) ctx.state.principal = principal;
  }
  return next();
};

function cookieCredential(
  get: (name: string) => string | undefined,
  portal: boolean,
): { token: string; kind: 'user' | 'creator' } | undefined {
  const creator = get(CREATOR_COOKIE);
  if (portal) return creator ? { token: creator, kind: 'creator' } : undefined;
  const session = get(SESSION_COOKIE);
  if (session) return { token: session, kind: 'user' };
  return creator ? { token: creator, kind: 'creator' } : undefined;
}
