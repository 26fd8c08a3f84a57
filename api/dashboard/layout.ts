// The signed-in dashboard's page shell: who is signed in and in which organization (`?org=` picks one of the
// user's organizations, default the first), the navigation, the session's CSRF token for every form, and one
// helper that renders a page. Pages without a session redirect to the sign-in page and come back.
import { findUser, roleIn } from '../../db/users.js';
import { NotFoundError } from '../../lib/errors.js';
import { escapeHtml, type Page } from '../../lib/html.js';
import type { MembershipRole } from '../../schema/types.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { sessionCsrf } from '../auth/csrf.js';
import { visibleTo } from '../agent/principal.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import { signInUrl } from './session.js';

export interface SignedIn { userId: string; email: string; orgIds: string[]; orgId: string | undefined; role: MembershipRole | undefined; csrf: string }

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
  const [user, role] = await Promise.all([findUser(ctx.deps.db, principal.userId), orgId ? roleIn(ctx.deps.db, orgId, principal.userId) : undefined]);
  return { userId: principal.userId, email: user?.email ?? principal.userId, orgIds: principal.orgIds, orgId, role, csrf: sessionCsrf(ctx, cookie) };
}

/** Owners and admins manage the organization (teammates, agent keys, money); members use the setup pages. */
export const canManage = (s: SignedIn): boolean => s.role === 'owner' || s.role === 'admin';

export const csrfField = (s: SignedIn): string => `<input type="hidden" name="csrf" value="${escapeHtml(s.csrf)}">`;

/** A one-button form (regenerate, revoke, ...) posting to `action`, coming back to `returnTo`. */
export function buttonForm(s: SignedIn, action: string, label: string, opts: { returnTo?: string; fields?: Record<string, string> } = {}): string {
  const hidden = Object.entries({ ...(opts.returnTo ? { return_to: opts.returnTo } : {}), ...opts.fields })
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
  return `<form method="post" action="${escapeHtml(action)}">${csrfField(s)}${hidden}<button type="submit">${escapeHtml(label)}</button></form>`;
}

/** `/dashboard/x` with the current organization kept (when the user has several). */
export function orgLink(s: SignedIn, path: string): string {
  if (s.orgIds.length < 2 || !s.orgId) return path;
  return `${path}${path.includes('?') ? '&' : '?'}org=${encodeURIComponent(s.orgId)}`;
}

/**
 * `scripts` (same-origin files) and `script` (inline) only where a page needs them (the analytics charts);
 * `formAction` widens the page's CSP form-action (a form whose answer redirects to Stripe Checkout).
 */
export type PageExtras = Pick<Page, 'script' | 'scripts'> & { formAction?: string };

export function dashboardPage(ctx: AppContext, s: SignedIn, status: number, title: string, body: string, extras: PageExtras = {}): void {
  const { formAction = "'self'", ...code } = extras;
  const links: [string, string][] = [['/dashboard', 'Apps'], ['/dashboard/campaigns', 'Campaigns'], ['/dashboard/creators', 'Creators'], ['/dashboard/bonus-awards', 'Bonus awards'], ['/dashboard/free-codes', 'Free codes'], ['/dashboard/assets', 'Assets'], ['/dashboard/wallet', 'Wallet'], ['/dashboard/agents', 'Connect an agent'], ['/dashboard/team', 'Team']];
  const orgPicker = s.orgIds.length > 1
    ? `<form method="get" action="${escapeHtml(ctx.path)}"><label for="org-pick" class="muted">Organization</label> <select id="org-pick" name="org">${s.orgIds.map((o) => `<option${o === s.orgId ? ' selected' : ''}>${escapeHtml(o)}</option>`).join('')}</select> <button type="submit">Switch</button></form>`
    : '';
  const nav = `<nav class="top" aria-label="Dashboard">${links.map(([href, label]) => `<a href="${escapeHtml(orgLink(s, href))}"${ctx.path === href ? ' aria-current="page"' : ''}>${label}</a>`).join('')}
<span class="muted">${escapeHtml(s.email)}${s.role ? ` (${s.role})` : ''}</span>${orgPicker}
<form method="post" action="/dashboard/logout">${csrfField(s)}<button type="submit">Sign out</button></form></nav>`;
  ctx.set('Cache-Control', 'no-store');
  sendPage(ctx, status, { title: `${title} · svc dashboard`, lang: 'en', formAction, wide: true, ...code, body: `${nav}\n<h1>${escapeHtml(title)}</h1>\n${body}` });
}

/**
 * `row` when the signed-in user may see it; otherwise the page answers 404 ("App not found") and this answers
 * undefined (the caller just returns). Another organization's row is not found, as on the API.
 */
export function visibleOrNotFoundPage<T extends { org_id: string }>(ctx: AppContext, s: SignedIn, row: T | undefined, what: 'App' | 'Campaign'): T | undefined {
  try {
    return visibleTo(ctx, row, what);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    dashboardPage(ctx, s, 404, `${what} not found`, `<p>No such ${what.toLowerCase()} in your organizations.</p>`);
    return undefined;
  }
}
