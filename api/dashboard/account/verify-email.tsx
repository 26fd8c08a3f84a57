// The verification link of a new account (`/dashboard/verify-email?token=…`, mailed by actions/account-mail.ts): opening it
// shows one button; only its POST spends the token and marks the address verified (confirm-step.tsx: a mail
// scanner's GET must not use up the link).
import { findLiveAccountToken } from '../../../db/account-tokens.js';
import type { AppContext } from '../../context.js';
import { accountTokenHash } from '../../../actions/account-mail.js';
import { verifyEmail } from '../../../actions/accounts.js';
import { SignInLink, simplePage, verifyEmailForm } from './accounts.js';
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
    const row = await verifyEmail(ctx.deps, { token });
    if (!row?.user_id) return false;
    simplePage(
      ctx,
      200,
      'Email verified',
      <>
        <p>Thank you: {row.email} is verified.</p>
        <SignInLink />
      </>,
    );
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
