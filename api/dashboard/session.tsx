// Dashboard sign-in (spec "Authentication" 8: the dashboard accepts only a session). GET /dashboard/login renders
// the form, POST checks email + password (scrypt, lib/passwords.ts) under a per-IP and per-email rate limit and
// sets the session cookie (HttpOnly, SameSite=Lax, Secure under HTTPS; only the token's digest is stored).
// POST /dashboard/logout ends the session (CSRF-checked like every state-changing session call: api/auth/csrf.ts).
// GET /dashboard/session tells a signed-in page its CSRF token. `return_to` only ever leads to a path of ours.
import { randomBytes } from 'node:crypto';
import { closeSession, openSession } from '../../actions/sessions.js';
import { findUser, findUserByEmail } from '../../db/users.js';
import { generateToken, SESSION_TOKEN_PREFIX } from '../../lib/credentials.js';
import { csrfMatches, csrfToken } from '../../lib/csrf.js';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { csrfKeyOf, sessionCsrf } from '../auth/csrf.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';

export const LOGIN_PATH = '/dashboard/login';
const LOGIN_CSRF_COOKIE = 'svc_login_csrf';
export const SESSION_TTL_MS = 14 * 24 * 3600_000;
/** Sign-in attempts: 10 per 15 minutes per client IP and, separately, per email address. */
export const LOGIN_RATE = { limit: 10, windowMs: 15 * 60_000 };
// Spends the same scrypt time whether or not the email exists, so timing does not reveal accounts.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

const cookieOptions = (ctx: AppContext, maxAge?: number) => ({
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

function renderLogin(ctx: AppContext, status: number, returnTo: string, error?: string, email = ''): void {
  const csrf = loginCsrf(ctx);
  sendPage(ctx, status, {
    title: 'Sign in',
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>Sign in</h1>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <form method="post" action={LOGIN_PATH}>
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="return_to" value={returnTo} />
          <p>
            <label>
              Email
              <br />
              <input type="email" name="email" autocomplete="username" required value={email} />
            </label>
          </p>
          <p>
            <label>
              Password
              <br />
              <input type="password" name="password" autocomplete="current-password" required />
            </label>
          </p>
          <p>
            <button type="submit">Sign in</button>
          </p>
        </form>
        <p class="muted">
          <a href="/dashboard/signup">Create an account</a> · <a href="/dashboard/password-reset">Forgot your password?</a>
        </p>
      </>
    ),
  });
}

export async function showLogin(ctx: AppContext): Promise<void> {
  const returnTo = safeReturnTo(ctx.query.return_to);
  if (ctx.state.principal?.kind === 'user') return ctx.redirect(returnTo);
  renderLogin(ctx, 200, returnTo);
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

export async function submitLogin(ctx: AppContext): Promise<void> {
  const body = ctx.state.body;
  checkLoginCsrf(ctx);
  const returnTo = safeReturnTo(field(body, 'return_to'));
  const email = field(body, 'email').trim().slice(0, 320);
  const password = field(body, 'password');
  const now = Date.now();
  for (const key of [`login:ip:${ctx.state.clientIp}`, `login:email:${email.toLowerCase()}`]) {
    if (!(await ctx.rateCounter.tryHit(key, LOGIN_RATE.limit, LOGIN_RATE.windowMs))) throw new RateLimitedError(LOGIN_RATE.windowMs / 1000);
  }
  const user = email && password ? await findUserByEmail(ctx.deps.db, email) : undefined;
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !user.password_hash || !ok) return renderLogin(ctx, 401, returnTo, 'Email or password is wrong.', email);
  // Accounts from sign-up sign in once their email is verified (the link in the verification email).
  if (!user.email_verified_at)
    return renderLogin(
      ctx,
      403,
      returnTo,
      'Verify your email first: open the link we sent you (or ask for a new one at /dashboard/verify-email).',
      email,
    );
  const token = generateToken(SESSION_TOKEN_PREFIX);
  await openSession(ctx.deps, {
    userId: user.id,
    token,
    ip: ctx.state.clientIp ?? null,
    userAgent: ctx.get('user-agent') || null,
    expiresAt: new Date(now + SESSION_TTL_MS),
  });
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, SESSION_TTL_MS));
  ctx.cookies.set(LOGIN_CSRF_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 });
  ctx.status = 303;
  ctx.redirect(returnTo);
}

export async function logout(ctx: AppContext): Promise<void> {
  // csrfGuard (api/auth/csrf.ts) already checked the token of this session.
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (cookie) await closeSession(ctx.deps, { token: cookie });
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 });
  ctx.status = 303;
  ctx.redirect(LOGIN_PATH);
}

/** The signed-in user and the session's CSRF token (for JSON calls made by dashboard pages). */
export async function sessionInfo(ctx: AppContext): Promise<void> {
  const principal = ctx.state.principal;
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (principal?.kind !== 'user' || !cookie) throw new UnauthorizedError('Not signed in: sign in at /dashboard/login.');
  const user = await findUser(ctx.deps.db, principal.userId);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { user_id: principal.userId, email: user?.email ?? null, org_ids: principal.orgIds, csrf_token: sessionCsrf(ctx, cookie) };
}
