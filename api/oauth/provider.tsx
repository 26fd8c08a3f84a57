// The OAuth 2.1 authorization server: oidc-provider, mounted under /oauth (issuer `BASE_URL/oauth`), storing
// everything in PostgreSQL (adapter.ts). What it allows (docs/oauth.md): dynamic client registration (RFC 7591),
// authorization code with PKCE S256 only, opaque access tokens for one hour, rotating refresh tokens for every
// client registered with the refresh_token grant (no `offline_access` needed), revocation (RFC 7009).
// Login and consent are our own pages (api/dashboard/agents/consent.tsx) on the dashboard session.
//
// Audience: one protected resource covers both agent surfaces. A client may name `BASE_URL/mcp`,
// `BASE_URL/api/agent` or `BASE_URL/` as its resource indicator; every access token carries the one audience
// `BASE_URL/`, which /mcp and /api/agent both check, so one grant works on both with the same scopes and tenancy.
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../runtime/config.js';
import { pageSecurityPolicy, renderPage } from '../view-kit/html.js';
import { SCOPES } from '../../lib/scopes.js';
import type { ApiDeps } from '../context.js';
import { adapterFactory } from '../../db/oauth-adapter.js';
import { metadataRefusal } from './client-facts.js';
import { clientMetadataPolicy, LOOPBACK_HOSTS } from './redirect-policy.js';

export const OAUTH_PREFIX = '/oauth';
const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const issuerOf = (config: Config): string => `${config.BASE_URL}${OAUTH_PREFIX}`;
/** The audience of every access token (see the header). */
export const agentAudience = (config: Config): string => `${config.BASE_URL}/`;
/** Resource indicators a client may ask for; all map to agentAudience. */
const resourceIndicators = (config: Config): string[] => [agentAudience(config), `${config.BASE_URL}/mcp`, `${config.BASE_URL}/api/agent`];
const interactionPath = (uid: string): string => `/dashboard/oauth/${uid}`;

function secretFor(config: Config, purpose: string): string {
  return config.SVC_MASTER_KEY
    ? createHmac('sha256', config.SVC_MASTER_KEY).update(purpose).digest('base64url')
    : randomBytes(32).toString('base64url');
}

function configuration(deps: ApiDeps): Configuration {
  const { config } = deps;
  // Only signs ID tokens (scope openid): one key per process is enough; no agent surface reads them.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
  // The agent scopes are listed too so that registration accepts them in a client's `scope` and discovery
  // advertises them; they are granted on the resource (consent.tsx rejects them as OpenID scopes).
  const scopes = ['openid', 'offline_access', ...SCOPES];
  return {
    adapter: adapterFactory(deps.db),
    jwks: { keys: [jwk] },
    cookies: { keys: [secretFor(config, 'svc oidc cookies v1')] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    claims: { openid: ['sub'] },
    scopes,
    // Which redirect URIs a client may register, and when it is a native client (redirect-policy.ts).
    extraClientMetadata: clientMetadataPolicy(scopes),
    responseTypes: ['code'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    // Refresh tokens for every client registered with the refresh_token grant; no offline_access needed.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      Session: 14 * 24 * 3600,
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    // Every authorization request goes through our consent page (and so needs the dashboard session): an earlier
    // grant is never reused silently, only the one the interaction just produced.
    loadExistingGrant: async (ctx) => {
      const grantId = (ctx.oidc.result as { consent?: { grantId?: string } } | undefined)?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // Browser-facing errors (bad client, bad redirect) in our page style; `out` holds only error and description.
    // A refused client metadata document also says why (client-facts.ts).
    renderError: (ctx, out, err) => {
      const nonce = randomBytes(16).toString('base64');
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', pageSecurityPolicy(nonce));
      const refusal = metadataRefusal(ctx.oidc?.params?.client_id, err);
      const lines = Object.entries(out).map(([k, v]) => (
        <p>
          <code>{k}</code>: {String(v)}
        </p>
      ));
      ctx.body = renderPage(
        {
          title: 'Authorization failed',
          lang: 'en',
          body: (
            <>
              <h1>Authorization failed</h1>
              {refusal ? (
                <p class="error" data-refusal={refusal.reason}>
                  {refusal.explanation}
                </p>
              ) : null}
              {lines}
            </>
          ),
        },
        nonce,
      );
    },
    // Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document-02, oidc-provider's experimental
    // support): a client_id that is an https URL is fetched (2.5 s timeout, 5 KB cap, no redirects, special-use and
    // private addresses refused by oidc-provider's SSRF guard) and validated instead of being registered.
    // The test setting serves documents over plain HTTP on 127/8; only the loopback names skip the guard, so a
    // document on 127.0.0.2 still meets it as a private address would in production.
    fetch: (url, options) => {
      const target = new URL(url as string | URL); // oidc-provider passes a string or URL, never a Request
      if (config.OAUTH_CIMD_ALLOW_LOOPBACK && config.NODE_ENV !== 'production' && target.hostname.startsWith('127.')) {
        target.protocol = 'http:';
        if (!LOOPBACK_HOSTS.has(target.hostname)) return fetch(target, options);
        const { dispatcher: _ssrfGuard, ...rest } = options as RequestInit & { dispatcher?: unknown };
        return fetch(target, rest);
      }
      return fetch(url, options);
    },
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024 },
    features: {
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => agentAudience(config),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!resourceIndicators(config).includes(resource))
            throw new errors.InvalidTarget(`unknown resource; use ${agentAudience(config)}`);
          return {
            scope: SCOPES.join(' '),
            audience: agentAudience(config),
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
  };
}

const providers = new WeakMap<ApiDeps, Provider>();

/** The app's provider, built on first use (tests learn BASE_URL only once the server listens). */
export function providerOf(deps: ApiDeps): Provider {
  let provider = providers.get(deps);
  if (!provider) {
    provider = new Provider(issuerOf(deps.config), configuration(deps));
    provider.proxy = deps.config.TRUST_PROXY;
    provider.on('server_error', (_ctx: KoaContextWithOIDC, err: unknown) => deps.logger.error({ err }, 'oauth server error'));
    providers.set(deps, provider);
  }
  return provider;
}
