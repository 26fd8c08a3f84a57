// Who is signed in to the dashboard, read for every page (the session, the user's organizations and role, the
// commissions held for review (the navigation's count), the flash of the previous post), and the page answer for a
// row of another organization. The view kit (api/view-kit/layout.tsx) draws with what this reads; it reads nothing
// itself.
import { countOpenHolds } from '../../db/commission-reviews.js';
import { listOrganizations } from '../../db/organizations.js';
import { findUser, roleIn } from '../../db/users.js';
import { NotFoundError } from '../../errors/http-errors.js';
import { visibleTo } from '../agent/principal.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { sessionCsrf } from '../auth/csrf.js';
import type { AppContext } from '../context.js';
import { takeFlash } from '../view-kit/flash.js';
import { dashboardPage, type SignedIn } from '../view-kit/layout.js';
import { signInUrl } from '../view-kit/sign-in-forms.js';

/** The signed-in user, or undefined after redirecting to sign-in (the caller just returns). */
export async function signedIn(ctx: AppContext): Promise<SignedIn | undefined> {
  const principal = ctx.state.principal;
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (principal?.kind !== 'user' || !cookie) {
    ctx.redirect(signInUrl(ctx.originalUrl));
    return undefined;
  }
  const wanted = typeof ctx.query.org === 'string' ? ctx.query.org : undefined;
  const orgId = wanted && principal.orgIds.includes(wanted) ? wanted : principal.orgIds[0];
  const [user, role, orgs, openHolds] = await Promise.all([
    findUser(ctx.deps.db, principal.userId),
    orgId ? roleIn(ctx.deps.db, orgId, principal.userId) : undefined,
    listOrganizations(ctx.deps.db, principal.orgIds),
    orgId ? countOpenHolds(ctx.deps.db, orgId) : 0,
  ]);
  const flash = ctx.method === 'GET' ? takeFlash(ctx) : undefined;
  return {
    userId: principal.userId,
    email: user?.email ?? principal.userId,
    orgIds: principal.orgIds,
    orgId,
    orgs,
    role,
    openHolds,
    csrf: sessionCsrf(ctx, cookie),
    flash,
  };
}

/**
 * `row` when the signed-in user may see it; otherwise the page answers 404 ("App not found") and this answers
 * undefined (the caller just returns). Another organization's row is not found, as on the API.
 */
export function visibleOrNotFoundPage<T extends { org_id: string }>(
  ctx: AppContext,
  s: SignedIn,
  row: T | undefined,
  what: 'App' | 'Campaign',
): T | undefined {
  try {
    return visibleTo(ctx, row, what);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    dashboardPage(ctx, s, 404, `${what} not found`, <p>No such {what.toLowerCase()} in your organizations.</p>);
    return undefined;
  }
}
