// "The browser that signed up": the sign-up answer leaves a cookie bound to the address (an HMAC under the CSRF key,
// so nothing is stored and it cannot be made for another address), living as long as the verification link (48
// hours). Opening that link in this browser signs in whenever it is used (lib/verify-sign-in.ts).
import { csrfMatches, csrfToken } from '../../../lib/csrf.js';
import { csrfKeyOf } from '../../auth/csrf.js';
import type { AppContext } from '../../context.js';
import { cookieOptions } from '../../view-kit/sign-in-forms.js';

const SIGN_UP_COOKIE = 'svc_signup';
const LINK_LIFETIME_MS = 48 * 3600_000;

const binding = (email: string) => `signup:${email.trim().toLowerCase()}`;

/** Set after every sign-up, new address or taken, so the answer (its headers included) tells nothing about accounts. */
export function rememberSignUpBrowser(ctx: AppContext, email: string): void {
  ctx.cookies.set(SIGN_UP_COOKIE, csrfToken(csrfKeyOf(ctx), binding(email)), cookieOptions(ctx, LINK_LIFETIME_MS));
}

export function signedUpInThisBrowser(ctx: AppContext, email: string): boolean {
  return csrfMatches(csrfKeyOf(ctx), binding(email), ctx.cookies.get(SIGN_UP_COOKIE));
}

export function forgetSignUpBrowser(ctx: AppContext): void {
  ctx.cookies.set(SIGN_UP_COOKIE, '', { ...cookieOptions(ctx), maxAge: 0 });
}
