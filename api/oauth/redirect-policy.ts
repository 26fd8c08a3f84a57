// Which redirect URIs a client may register (docs/oauth.md "Clients cannot pose as others"), as an extension of
// oidc-provider's own client-metadata validation (its documented `extraClientMetadata` hook, which may also shape
// the metadata). oidc-provider already refuses fragments, unparsable URIs and, for native clients, `http` off
// loopback and the script/local schemes; what it leaves open and this adds:
// - `http` is loopback only (127.0.0.1, [::1], localhost) for every client, not just native ones;
// - `javascript:`, `data:`, `file:`, `blob:`, `vbscript:`, `about:` are refused for every client;
// - a registration whose URIs are all loopback, or that names a private-use scheme (RFC 8252 §7.1, e.g.
//   `cursor://…`), is a native client: oidc-provider then lets loopback redirects use any port (RFC 8252 §7.3)
//   and accepts the private-use scheme, which its `web` type refuses. An explicit `native` is kept.
// - registered `scope` values it does not know are dropped rather than refusing the client (RFC 7591 §2 lets the
//   server replace requested metadata): claude.ai registers `scope: "claudeai"`. None left: no scope limit, the
//   consent page decides.
// A refusal's description starts with `redirect_uris`, which oidc-provider answers as RFC 7591's
// `invalid_redirect_uri`.
import { errors, type Configuration } from 'oidc-provider';

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
const FORBIDDEN = new Set(['javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'about:']);

export type RedirectKind = 'https' | 'loopback' | 'private-use' | 'insecure-http' | 'forbidden' | 'invalid';

export function redirectKind(uri: string): RedirectKind {
  const url = URL.parse(uri);
  if (!url) return 'invalid';
  if (url.protocol === 'https:') return 'https';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? 'loopback' : 'insecure-http';
  return FORBIDDEN.has(url.protocol) ? 'forbidden' : 'private-use';
}

const refuse = (message: string): never => {
  throw new errors.InvalidClientMetadata(`redirect_uris ${message}`);
};

function checkRedirects(metadata: Record<string, unknown>): void {
  const uris = metadata.redirect_uris;
  // Shape errors (not an array, not strings) are oidc-provider's to report.
  if (!Array.isArray(uris) || !uris.every((u): u is string => typeof u === 'string')) return;
  const kinds = uris.map((uri) => {
    const kind = redirectKind(uri);
    if (kind === 'insecure-http') refuse(`may use http only on loopback (127.0.0.1, [::1], localhost): ${uri}`);
    if (kind === 'forbidden') refuse(`must not use the ${uri.slice(0, uri.indexOf(':'))}: scheme`);
    return kind;
  });
  const native = kinds.length > 0 && (kinds.includes('private-use') || kinds.every((k) => k === 'loopback'));
  if (native) metadata.application_type = 'native';
}

function keepKnownScopes(metadata: Record<string, unknown>, known: ReadonlySet<string>): void {
  if (typeof metadata.scope !== 'string') return;
  const kept = metadata.scope.split(' ').filter((s) => known.has(s));
  if (kept.length > 0) metadata.scope = kept.join(' ');
  else delete metadata.scope;
}

/** oidc-provider's `extraClientMetadata` for the two standard properties it extends. */
export function clientMetadataPolicy(knownScopes: readonly string[]): NonNullable<Configuration['extraClientMetadata']> {
  const known = new Set(knownScopes);
  return {
    properties: ['redirect_uris', 'scope'],
    validator(_ctx, key, _value, metadata) {
      if (key === 'redirect_uris') checkRedirects(metadata);
      else if (key === 'scope') keepKnownScopes(metadata, known);
    },
  };
}
