// Who is on a portal page (docs/creator-portal.md "A creator is its own principal"): only a creator session is
// admitted. No credential: the page sends the browser to sign in. Any other credential (dashboard session, agent or
// SDK key, presented as a bearer token) is 401 on every portal path; the dashboard's cookie is never read here
// (api/auth/authenticate.ts). The portal's forms carry a token bound to the creator session.
import { findCreatorContact, type CreatorContact } from '../../db/creators.js';
import { csrfMatches, csrfToken } from '../../lib/csrf.js';
import { ForbiddenError, UnauthorizedError } from '../../errors/http-errors.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import { csrfKeyOf } from '../auth/csrf.js';
import type { AppContext, Middleware } from '../context.js';

export const SIGN_IN_PATH = `${PORTAL_PATH}/sign-in`;
export const CREATOR_SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface CreatorSignedIn {
  creator: CreatorContact;
  csrf: string;
}

/** 401 for any principal other than a creator, on every portal path. */
export const portalOnlyCreators: Middleware = async (ctx, next) => {
  const principal = ctx.state.principal;
  if (principal && principal.kind !== 'creator') {
    throw new UnauthorizedError(
      'The creator portal accepts only a creator portal session: sign in with the link mailed to you at /dashboard/creator/sign-in.',
    );
  }
  return next();
};

const binding = (sessionId: string) => `creator:${sessionId}`;

/** The signed-in creator, or undefined after sending the browser to sign in (the caller just returns). */
export async function signedInCreator(ctx: AppContext): Promise<CreatorSignedIn | undefined> {
  const principal = ctx.state.principal;
  const creator = principal?.kind === 'creator' ? await findCreatorContact(ctx.deps.db, principal.creatorId) : undefined;
  if (principal?.kind !== 'creator' || !creator) {
    ctx.redirect(SIGN_IN_PATH);
    return undefined;
  }
  return { creator, csrf: csrfToken(csrfKeyOf(ctx), binding(principal.sessionId)) };
}

/** 403 unless the form carries this creator session's token. */
export function checkCreatorCsrf(ctx: AppContext): void {
  const principal = ctx.state.principal;
  const presented = (ctx.state.body as Record<string, unknown> | undefined)?.csrf ?? ctx.get('x-csrf-token');
  if (principal?.kind !== 'creator' || !csrfMatches(csrfKeyOf(ctx), binding(principal.sessionId), presented)) {
    throw new ForbiddenError('Missing or invalid CSRF token: reload the page and try again.');
  }
}

export const creatorCookieOptions = (ctx: AppContext, maxAgeMs?: number) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.secure,
  path: PORTAL_PATH,
  overwrite: true,
  ...(maxAgeMs !== undefined ? { maxAge: maxAgeMs } : {}),
});
