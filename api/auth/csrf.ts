// CSRF protection for everything a browser can be tricked into sending: a state-changing request authenticated by
// the session cookie must carry the session's CSRF token (`X-CSRF-Token` header or a `csrf` form field), else 403.
// Bearer credentials are not sent by browsers on their own, so they need none. The login form, which has no
// session yet, binds its token to a pre-session cookie instead (api/dashboard/account/session.tsx).
import { hashToken, parseBearer } from '../../lib/credentials.js';
import { csrfKey, csrfMatches, csrfToken } from '../../lib/csrf.js';
import { ForbiddenError } from '../../errors/http-errors.js';
import type { AppContext, Middleware } from '../context.js';
import { SESSION_COOKIE } from './authenticate.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const keys = new Map<string, Buffer>();

export function csrfKeyOf(ctx: AppContext): Buffer {
  const master = ctx.deps.config.SVC_MASTER_KEY ?? '';
  let key = keys.get(master);
  if (!key) keys.set(master, (key = csrfKey(master || undefined)));
  return key;
}

/** The session's token, for forms and for `GET /dashboard/session`. */
export function sessionCsrf(ctx: AppContext, sessionToken: string): string {
  return csrfToken(csrfKeyOf(ctx), `session:${hashToken(sessionToken)}`);
}

function presentedCsrf(ctx: AppContext): unknown {
  const header = ctx.get('x-csrf-token');
  if (header) return header;
  const body = ctx.state.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' && !Array.isArray(body) ? body.csrf : undefined;
}

/** Paths that check their own token (forms shown before sign-in: no session yet; api/dashboard/account/session.tsx). */
const OWN_CHECK = new Set(['/dashboard/login', '/dashboard/signup', '/dashboard/password-reset', '/dashboard/verify-email']);
// The creator portal checks its own: pre-session forms like sign-in's, the rest bound to the creator session.
const OWN_CHECK_PREFIXES = ['/dashboard/password-reset/', '/dashboard/invite/', '/dashboard/creator/'];
/**
 * Pages that act on a capability in the request itself, never on the session: the signed links (their signature and
 * single use) and a started top-up (its confirmation token). A signed-in browser posting them needs no session token.
 */
const CAPABILITY_PREFIXES = ['/dashboard/links/', '/dashboard/topups/'];
/**
 * Public endpoints (the join page's POST) act for anyone and read no session, so a signed-in developer trying their
 * own join page is not refused for the session cookie their browser happens to send.
 */
const SESSIONLESS_PREFIXES = ['/api/public/'];

/**
 * Upload routes read their multipart body themselves (api/middleware/multipart.ts), so the `csrf` field is only
 * known after parsing: these routes call `checkSessionCsrf` with it. Any other multipart request must send the
 * header (a cross-site form cannot), so a forged multipart post never reaches a state-changing route unchecked.
 */
const MULTIPART_SELF_CHECKED = /^\/api\/apps\/[^/]+\/(credentials|assets)$/;

/** 403 unless `presented` is this session's token (a no-op for bearer callers, who need none). */
export function checkSessionCsrf(ctx: AppContext, presented: unknown): void {
  const cookie = parseBearer(ctx.get('authorization')) ? undefined : ctx.cookies.get(SESSION_COOKIE);
  if (cookie && ctx.state.principal?.kind === 'user' && !csrfMatches(csrfKeyOf(ctx), `session:${hashToken(cookie)}`, presented)) {
    throw new ForbiddenError('Missing or invalid CSRF token: send the token of this session as `X-CSRF-Token` (or the `csrf` form field).');
  }
}

export const csrfGuard: Middleware = async (ctx, next) => {
  if (
    SAFE.has(ctx.method) ||
    OWN_CHECK.has(ctx.path) ||
    OWN_CHECK_PREFIXES.some((p) => ctx.path.startsWith(p)) ||
    CAPABILITY_PREFIXES.some((p) => ctx.path.startsWith(p)) ||
    SESSIONLESS_PREFIXES.some((p) => ctx.path.startsWith(p))
  )
    return next();
  if (ctx.is('multipart/form-data') && MULTIPART_SELF_CHECKED.test(ctx.path) && !ctx.get('x-csrf-token')) {
    ctx.state.csrfDeferred = true;
    return next();
  }
  checkSessionCsrf(ctx, presentedCsrf(ctx));
  return next();
};
