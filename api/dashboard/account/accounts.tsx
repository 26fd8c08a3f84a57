// Accounts (before sign-in): sign-up of a new organization (email + password; the user becomes its owner and signs
// in once the email is verified), email verification, and password reset, all through the email outbox
// (actions/account-mail.ts). Forms carry the pre-session CSRF token (api/dashboard/account/session.tsx). Where the spec
// is silent: passwords are 10 to 200 characters; the same "check your email" answer is given whether or not an
// address has an account (sign-up of a taken address emails its owner instead), so pages never reveal accounts;
// sign-up and reset requests share the sign-in rate limit per IP and email; a reset ends every session of the user.
import { findLiveAccountToken } from '../../../db/account-tokens.js';
import { findUserByEmail } from '../../../db/users.js';
import { RateLimitedError } from '../../../errors/http-errors.js';
import type { ComponentChildren } from 'preact';
import { hashPassword } from '../../../lib/passwords.js';
import type { AppContext } from '../../context.js';
import { sendPage } from '../../send-page.js';
import { accountTokenHash } from '../../../actions/account-mail.js';
import { mailAccountLink, resetPassword, signUp, type AccountDeps } from '../../../actions/accounts.js';
import { LOGIN_RATE } from './session.js';
import { checkLoginCsrf, field, LOGIN_PATH, loginCsrf } from '../../view-kit/sign-in-forms.js';
import { ProblemSummary, refusal, type FormWords } from '../../view-kit/form-errors.js';
import { Field, type FormState } from '../../view-kit/ui.js';

/** What the account actions (actions/accounts.ts) need of a request. */
import { rememberSignUpBrowser } from './sign-up-browser.js';

export const accountDeps = (ctx: AppContext): AccountDeps => ({ db: ctx.deps.db, dashboardUrl: ctx.deps.config.DASHBOARD_URL });

export const PASSWORD_RULE = { min: 10, max: 200 };
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_RULE.min || password.length > PASSWORD_RULE.max)
    return `The password must be ${PASSWORD_RULE.min} to ${PASSWORD_RULE.max} characters.`;
  return undefined;
}

export function simplePage(ctx: AppContext, status: number, title: string, body: ComponentChildren): void {
  sendPage(ctx, status, {
    title,
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>{title}</h1>
        {'\n'}
        {body}
      </>
    ),
  });
}

export const ErrorLine = ({ error }: { error?: string }) =>
  error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;

/** A form shown before sign-in, with the pre-session CSRF token (session.tsx loginCsrf). */
export const PublicForm = ({ ctx, action, children }: { ctx: AppContext; action: string; children: ComponentChildren }) => (
  <form method="post" action={action}>
    <input type="hidden" name="csrf" value={loginCsrf(ctx)} />
    {children}
  </form>
);

export const SignInLink = () => (
  <p>
    <a href={LOGIN_PATH}>Sign in</a>
  </p>
);

async function rateLimit(ctx: AppContext, email: string): Promise<void> {
  for (const key of [`account:ip:${ctx.state.clientIp}`, `account:email:${email.toLowerCase()}`]) {
    if (!(await ctx.rateCounter.tryHit(key, LOGIN_RATE.limit, LOGIN_RATE.windowMs))) throw new RateLimitedError(LOGIN_RATE.windowMs / 1000);
  }
}

// ---- sign-up ---------------------------------------------------------------------------------------------------

/** GET /dashboard/signup. */
export const showSignup = (ctx: AppContext): void => signupForm(ctx, 200);

/** The sign-up form's words: its labels, and each rule as a person reads it (checked all at once by `signupProblems`). */
const SIGNUP_WORDS = {
  labels: { org_name: 'Organization name', email: 'Email', password: 'Password' },
  rules: {
    org_name: 'Give your organization a name of up to 200 characters.',
    email: 'Enter your email address, such as name@example.com.',
    password: `Choose a password of ${PASSWORD_RULE.min} to ${PASSWORD_RULE.max} characters.`,
  },
} satisfies FormWords;

function signupForm(ctx: AppContext, status: number, state?: FormState, lines: string[] = []): void {
  const L = SIGNUP_WORDS.labels;
  simplePage(
    ctx,
    status,
    'Create your account',
    <>
      <ProblemSummary lines={lines} verb="created" />
      <PublicForm ctx={ctx} action="/dashboard/signup">
        <Field id="org_name" name="org_name" label={L.org_name} required maxlength={200} state={state} />
        <Field id="email" name="email" type="email" label={L.email} autocomplete="username" required state={state} />
        <Field
          id="password"
          name="password"
          type="password"
          label={`${L.password} (${PASSWORD_RULE.min} characters or more)`}
          autocomplete="new-password"
          required
          minlength={PASSWORD_RULE.min}
          state={state}
          hint={state ? 'For your safety the password is never shown again: type it anew.' : undefined}
        />
        <button type="submit">Create account</button>
      </PublicForm>
      <p class="muted">
        Already have an account? <a href={LOGIN_PATH}>Sign in</a>
      </p>
    </>,
  );
}

const checkEmailPage = (ctx: AppContext, email: string) =>
  simplePage(
    ctx,
    200,
    'Check your email',
    <>
      <p>
        We sent a link to <strong>{email}</strong>. Open it to verify your email, then sign in.
      </p>
      <p class="muted">
        No email? <a href="/dashboard/verify-email">Send a new link</a>.
      </p>
    </>,
  );

export async function submitSignup(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const body = ctx.state.body;
  const org = field(body, 'org_name').trim();
  const email = field(body, 'email').trim().toLowerCase();
  const password = field(body, 'password');
  const failing = [
    ...(org && org.length <= 200 ? [] : ['org_name']),
    ...(EMAIL.test(email) && email.length <= 320 ? [] : ['email']),
    ...(passwordProblem(password) ? ['password'] : []),
  ];
  if (failing.length > 0) {
    const { state, lines } = refusal(failing, SIGNUP_WORDS, { org_name: org, email, password });
    return signupForm(ctx, 422, state, lines);
  }
  await rateLimit(ctx, email);
  const passwordHash = await hashPassword(password);
  await signUp(accountDeps(ctx), { orgName: org, email, passwordHash });
  rememberSignUpBrowser(ctx, email);
  checkEmailPage(ctx, email);
}

// ---- email verification ----------------------------------------------------------------------------------------

/** GET /dashboard/verify-email without a token: the form asking for a new link (api/dashboard/account/verify-email.tsx has the link). */
export function verifyEmailForm(ctx: AppContext): void {
  simplePage(
    ctx,
    200,
    'Verify your email',
    <PublicForm ctx={ctx} action="/dashboard/verify-email">
      <label for="email">Email of your account</label>
      <input id="email" type="email" name="email" required />
      <button type="submit">Send a new verification link</button>
    </PublicForm>,
  );
}

export async function resendVerification(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const email = field(ctx.state.body, 'email').trim();
  await rateLimit(ctx, email);
  const user = EMAIL.test(email) ? await findUserByEmail(ctx.deps.db, email) : undefined;
  if (user && !user.email_verified_at)
    await mailAccountLink(accountDeps(ctx), { purpose: 'verify_email', email: user.email, userId: user.id });
  checkEmailPage(ctx, email);
}

// ---- password reset --------------------------------------------------------------------------------------------

export function resetRequestForm(ctx: AppContext): void {
  simplePage(
    ctx,
    200,
    'Reset your password',
    <PublicForm ctx={ctx} action="/dashboard/password-reset">
      <label for="email">Email</label>
      <input id="email" type="email" name="email" autocomplete="username" required />
      <button type="submit">Email me a reset link</button>
    </PublicForm>,
  );
}

export async function requestReset(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const email = field(ctx.state.body, 'email').trim();
  await rateLimit(ctx, email);
  const user = EMAIL.test(email) ? await findUserByEmail(ctx.deps.db, email) : undefined;
  if (user) await mailAccountLink(accountDeps(ctx), { purpose: 'reset_password', email: user.email, userId: user.id });
  simplePage(ctx, 200, 'Check your email', <p>If {email} has an account, a reset link is on its way (valid 1 hour).</p>);
}

function newPasswordForm(ctx: AppContext, status: number, token: string, error?: string): void {
  simplePage(
    ctx,
    status,
    'Choose a new password',
    <>
      <ErrorLine error={error} />
      <PublicForm ctx={ctx} action={`/dashboard/password-reset/${encodeURIComponent(token)}`}>
        <label for="password">New password ({PASSWORD_RULE.min} characters or more)</label>
        <input id="password" type="password" name="password" autocomplete="new-password" required minlength={PASSWORD_RULE.min} />
        <button type="submit">Set password</button>
      </PublicForm>
    </>,
  );
}

const invalidReset = (ctx: AppContext) =>
  simplePage(
    ctx,
    410,
    'Link not valid',
    <p>
      This reset link is unknown, used or expired. <a href="/dashboard/password-reset">Ask for a new one</a>.
    </p>,
  );

export async function showReset(ctx: AppContext): Promise<void> {
  const token = ctx.params.token as string;
  if (!(await findLiveAccountToken(ctx.deps.db, 'reset_password', accountTokenHash(token)))) return invalidReset(ctx);
  newPasswordForm(ctx, 200, token);
}

export async function completeReset(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const token = ctx.params.token as string;
  const password = field(ctx.state.body, 'password');
  const problem = passwordProblem(password);
  if (problem) return newPasswordForm(ctx, 422, token, problem);
  const passwordHash = await hashPassword(password);
  const done = await resetPassword(ctx.deps, { token, passwordHash });
  if (!done) return invalidReset(ctx);
  simplePage(
    ctx,
    200,
    'Password changed',
    <>
      <p>Your password is changed and every other session is signed out.</p>
      <SignInLink />
    </>,
  );
}
