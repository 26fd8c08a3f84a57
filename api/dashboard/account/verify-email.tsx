// The verification link of a new account (`/dashboard/verify-email?token=…`, mailed by actions/account-mail.ts): opening it
// shows one button; only its POST spends the token and marks the address verified (confirm-step.tsx: a mail
// scanner's GET must not use up the link). Within an hour of the sign-up, or in the browser that signed up, that
// POST also signs in (303 to the dashboard); otherwise it shows the sign-in form saying the address is verified.
import { findLiveAccountToken } from '../../../db/account-tokens.js';
import type { AppContext } from '../../context.js';
import { accountTokenHash } from '../../../actions/account-mail.js';
import { verifyEmail } from '../../../actions/accounts.js';
import { simplePage, verifyEmailForm } from './accounts.js';
import { generateToken, SESSION_TOKEN_PREFIX } from '../../../lib/credentials.js';
import { renderLoginWithNotice, SESSION_TTL_MS, setSessionCookies } from './session.js';
import { forgetSignUpBrowser, signedUpInThisBrowser } from './sign-up-browser.js';
import { confirmStepHandlers } from './confirm-step.js';

export const VERIFY_PATH = '/dashboard/verify-email';

const verify = confirmStepHandlers({
  tokenOf: (ctx) =>
    typeof ctx.params.token === 'string' ? ctx.params.token : typeof ctx.query.token === 'string' ? ctx.query.token : undefined,
  async describe(ctx, token) {
    const row = await findLiveAccountToken(ctx.deps.db, 'verify_email', accountTokenHash(token));
    if (!row?.user_id) return undefined;
    return {
      title: 'Verify your email',
      button: 'Verify my email',
      action: `${VERIFY_PATH}/${encodeURIComponent(token)}`,
      explanation: (
        <>
          Confirm that <strong>{row.email}</strong> is your address to finish creating your account.
        </>
      ),
    };
  },
  async confirm(ctx, token) {
    const session = generateToken(SESSION_TOKEN_PREFIX);
    const done = await verifyEmail(ctx.deps, {
      token,
      now: new Date(),
      signedUpHere: (email) => signedUpInThisBrowser(ctx, email),
      session: {
        token: session,
        ip: ctx.state.clientIp ?? null,
        userAgent: ctx.get('user-agent') || null,
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      },
    });
    if (!done) return false;
    forgetSignUpBrowser(ctx);
    if (done.signedIn) {
      setSessionCookies(ctx, session);
      ctx.status = 303;
      ctx.redirect('/dashboard');
      return true;
    }
    // Later, or in another browser: the link proves the address, the password proves the person.
    renderLoginWithNotice(ctx, `Thank you: ${done.email} is verified. Sign in with your password to continue.`, done.email);
    return true;
  },
  invalid: (ctx) =>
    simplePage(
      ctx,
      410,
      'Link not valid',
      <p>
        This verification link is unknown, used or expired. <a href={VERIFY_PATH}>Send a new one</a>.
      </p>,
    ),
});

/** GET /dashboard/verify-email: with `?token=` the one-button page (nothing spent), without it the resend form. */
export async function showVerifyEmail(ctx: AppContext): Promise<void> {
  if (typeof ctx.query.token === 'string') return verify.show(ctx);
  verifyEmailForm(ctx);
}

/** POST /dashboard/verify-email/{token}: spends the token. */
export const confirmVerifyEmail = verify.submit;
