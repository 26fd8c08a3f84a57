// What the dashboard and the creator portal share before a session exists: the sign-in path, the pre-session CSRF
// token of the forms shown to a visitor (sign-in, sign-up, password reset, invitations, the portal's sign-in), reading
// a form field, and where `return_to` may lead (only a path of ours).
import { randomBytes } from 'node:crypto';
import { csrfMatches, csrfToken } from '../../lib/csrf.js';
import { ForbiddenError } from '../../errors/http-errors.js';
import { csrfKeyOf } from '../auth/csrf.js';
import type { AppContext } from '../context.js';

export const LOGIN_PATH = '/dashboard/login';
/** The pre-session cookie the forms' CSRF token is bound to (cleared once a session exists). */
export const LOGIN_CSRF_COOKIE = 'svc_login_csrf';

export const cookieOptions = (ctx: AppContext, maxAge?: number) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.secure,
  path: '/',
  overwrite: true,
  ...(maxAge ? { maxAge } : {}),
});

/** A local path to go back to after sign-in; anything else (other hosts, `//host`, schemes) becomes /dashboard. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && !/[\r\n]/.test(value) ? value : '/dashboard';
}

export function signInUrl(returnTo: string): string {
  return `${LOGIN_PATH}?return_to=${encodeURIComponent(returnTo)}`;
}

/** A token for forms shown before sign-in (sign-in, sign-up, password reset, invitations), bound to a pre-session cookie. */
export function loginCsrf(ctx: AppContext): string {
  let binding = ctx.cookies.get(LOGIN_CSRF_COOKIE);
  if (!binding || !/^[A-Za-z0-9_-]{16,64}$/.test(binding)) {
    binding = randomBytes(18).toString('base64url');
    ctx.cookies.set(LOGIN_CSRF_COOKIE, binding, cookieOptions(ctx));
  }
  return csrfToken(csrfKeyOf(ctx), `login:${binding}`);
}

export const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};

/** 403 unless the form carries the pre-session token of this browser. */
export function checkLoginCsrf(ctx: AppContext): void {
  const binding = ctx.cookies.get(LOGIN_CSRF_COOKIE);
  if (!binding || !csrfMatches(csrfKeyOf(ctx), `login:${binding}`, field(ctx.state.body, 'csrf'))) {
    throw new ForbiddenError('Missing or invalid CSRF token: reload the page and try again.');
  }
}
