// Dashboard sign-in (spec "Authentication" 8: the dashboard accepts only a session). GET /dashboard/login renders
// the form, POST checks email + password (scrypt, lib/passwords.ts) under a per-IP and per-email rate limit and
// sets the session cookie (HttpOnly, SameSite=Lax, Secure under HTTPS; only the token's digest is stored).
// POST /dashboard/logout ends the session (CSRF-checked like every state-changing session call: api/auth/csrf.ts).
// GET /dashboard/session tells a signed-in page its CSRF token. `return_to` only ever leads to a path of ours.
import { closeSession, openSession } from '../../../actions/sessions.js';
import { findUser, findUserByEmail } from '../../../db/users.js';
import { generateToken, SESSION_TOKEN_PREFIX } from '../../../lib/credentials.js';
import { RateLimitedError, UnauthorizedError } from '../../../errors/http-errors.js';
import { verifyPassword } from '../../../lib/passwords.js';
import { SESSION_COOKIE } from '../../auth/authenticate.js';
import { sessionCsrf } from '../../auth/csrf.js';
import type { AppContext } from '../../context.js';
import { sendPage } from '../../send-page.js';
import {
  checkLoginCsrf,
  cookieOptions,
  field,
  LOGIN_CSRF_COOKIE,
  LOGIN_PATH,
  loginCsrf,
  safeReturnTo,
} from '../../view-kit/sign-in-forms.js';

export const SESSION_TTL_MS = 14 * 24 * 3600_000;
/** Sign-in attempts: 10 per 15 minutes per client IP and, separately, per email address. */
export const LOGIN_RATE = { limit: 10, windowMs: 15 * 60_000 };
// Spends the same scrypt time whether or not the email exists, so timing does not reveal accounts.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function renderLogin(ctx: AppContext, status: number, returnTo: string, error?: string, email = '', notice?: string): void {
  const csrf = loginCsrf(ctx);
  sendPage(ctx, status, {
    title: 'Sign in',
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>Sign in</h1>
        {notice ? (
          <p class="flash ok" role="status">
            {notice}
          </p>
        ) : null}
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

/** The sign-in form with a word above it (after a verification that does not sign in), the address filled in. */
export function renderLoginWithNotice(ctx: AppContext, notice: string, email: string): void {
  renderLogin(ctx, 200, '/dashboard', undefined, email, notice);
}

/** The cookies of a new session: the session itself; the pre-session CSRF cookie is done with. */
export function setSessionCookies(ctx: AppContext, token: string): void {
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(ctx, SESSION_TTL_MS));
  ctx.cookies.set(LOGIN_CSRF_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 });
}

export async function showLogin(ctx: AppContext): Promise<void> {
  const returnTo = safeReturnTo(ctx.query.return_to);
  if (ctx.state.principal?.kind === 'user') return ctx.redirect(returnTo);
  renderLogin(ctx, 200, returnTo);
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
  setSessionCookies(ctx, token);
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
