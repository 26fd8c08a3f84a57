// Signing in to the creator portal (docs/creator-portal.md "Sign-in"). GET/POST /dashboard/creator/sign-in asks for a
// link with the address the creator joined with: the answer is the same whether or not the address is known, and
// requests are limited per address and per client IP. The mailed link opens GET .../sign-in/confirm, a page whose
// one button POSTs the token: only that POST spends it (a mail scanner's GET spends nothing) and opens the session
// (its own cookie, path /dashboard/creator). The forms before sign-in carry the pre-session CSRF token of the
// dashboard's sign-in (api/dashboard/account/session.tsx); signing out carries the creator session's token.
import { mailCreatorSignInLink, signInCreator, signOutCreator } from '../../actions/creator-sessions.js';
import { findCreatorByEmail } from '../../db/creators.js';
import { isSignInTokenLive } from '../../db/creator-sessions.js';
import { hashToken } from '../../lib/credentials.js';
import { RateLimitedError } from '../../errors/http-errors.js';
import { CREATOR_COOKIE, PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { checkLoginCsrf, field, loginCsrf } from '../view-kit/sign-in-forms.js';
import { checkCreatorCsrf, CREATOR_SESSION_TTL_SECONDS, creatorCookieOptions, SIGN_IN_PATH } from './auth.js';
import { publicPortalPage } from './layout.js';

const CONFIRM_PATH = '/dashboard/creator/sign-in/confirm';

/** Link requests: 5 per 15 minutes per address and 20 per 15 minutes per client IP. */
export const LINK_RATE = { perAddress: 5, perIp: 20, windowMs: 15 * 60_000 };
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

function requestForm(ctx: AppContext, status: number, email = '', error?: string): void {
  publicPortalPage(
    ctx,
    status,
    'Creator sign-in',
    <>
      <p>Creators sign in with a link we email to the address they joined a campaign with. No password.</p>
      <form method="post" action={SIGN_IN_PATH} novalidate>
        <input type="hidden" name="csrf" value={loginCsrf(ctx)} />
        <label for="email">Email you joined with</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxlength={254}
          value={email}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'email-error' : undefined}
        />
        {error ? (
          <p id="email-error" class="error">
            {error}
          </p>
        ) : null}
        <button type="submit">Email me a sign-in link</button>
      </form>
    </>,
  );
}

export async function showSignIn(ctx: AppContext): Promise<void> {
  if (ctx.state.principal?.kind === 'creator') return ctx.redirect(PORTAL_PATH);
  requestForm(ctx, 200);
}

export async function requestLink(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const email = field(ctx.state.body, 'email').trim().slice(0, 254);
  if (!EMAIL.test(email)) return requestForm(ctx, 422, email, 'Enter the email address you joined with, like name@example.com.');
  const limits: [string, number][] = [
    [`creator-link:ip:${ctx.state.clientIp}`, LINK_RATE.perIp],
    [`creator-link:email:${email.toLowerCase()}`, LINK_RATE.perAddress],
  ];
  for (const [key, limit] of limits) {
    if (!(await ctx.rateCounter.tryHit(key, limit, LINK_RATE.windowMs))) {
      ctx.set('Retry-After', String(new RateLimitedError(LINK_RATE.windowMs / 1000).retryAfterSeconds));
      return requestForm(
        ctx,
        429,
        email,
        'Too many sign-in links were asked for: wait 15 minutes, then ask again. A link already mailed still works.',
      );
    }
  }
  const creator = await findCreatorByEmail(ctx.deps.db, email);
  if (creator?.email)
    await mailCreatorSignInLink(
      { db: ctx.deps.db, dashboardUrl: ctx.deps.config.DASHBOARD_URL },
      { creatorId: creator.id, email: creator.email, name: creator.name },
    );
  // The same words for every address: whether one joined is not told here.
  publicPortalPage(
    ctx,
    200,
    'Check your email',
    <>
      <p role="status">
        If a creator joined with <strong>{email}</strong>, a sign-in link is on its way. It works once, for 15 minutes.
      </p>
      <p class="muted">
        Nothing arrived? Check the spam folder, or <a href={SIGN_IN_PATH}>ask again</a> with the address you joined with.
      </p>
    </>,
  );
}

const spentPage = (ctx: AppContext) =>
  publicPortalPage(
    ctx,
    410,
    'This link no longer works',
    <>
      <p role="alert">The sign-in link was used already or is older than 15 minutes.</p>
      <p>
        <a href={SIGN_IN_PATH}>Ask for a new link</a>
      </p>
    </>,
  );

export async function showConfirm(ctx: AppContext): Promise<void> {
  const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
  if (!token || !(await isSignInTokenLive(ctx.deps.db, hashToken(token)))) return spentPage(ctx);
  publicPortalPage(
    ctx,
    200,
    'Sign in to the creator portal',
    <>
      <p>Confirm to sign in on this device.</p>
      <form method="post" action={CONFIRM_PATH}>
        <input type="hidden" name="csrf" value={loginCsrf(ctx)} />
        <input type="hidden" name="token" value={token} />
        <button type="submit">Sign in</button>
      </form>
    </>,
  );
}

export async function confirm(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const session = await signInCreator(ctx.deps, {
    linkToken: field(ctx.state.body, 'token'),
    ip: ctx.state.clientIp ?? null,
    userAgent: ctx.get('user-agent') || null,
    ttlSeconds: CREATOR_SESSION_TTL_SECONDS,
  });
  if (!session) return spentPage(ctx);
  ctx.cookies.set(CREATOR_COOKIE, session, creatorCookieOptions(ctx, CREATOR_SESSION_TTL_SECONDS * 1000));
  ctx.status = 303;
  ctx.redirect(PORTAL_PATH);
}

export async function signOut(ctx: AppContext): Promise<void> {
  checkCreatorCsrf(ctx);
  const cookie = ctx.cookies.get(CREATOR_COOKIE);
  if (cookie) await signOutCreator(ctx.deps, { sessionToken: cookie });
  ctx.cookies.set(CREATOR_COOKIE, '', creatorCookieOptions(ctx, 0));
  ctx.status = 303;
  ctx.redirect(SIGN_IN_PATH);
}
