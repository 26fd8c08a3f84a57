// GET /dashboard/campaigns (the organization's campaigns and the create form) and GET /dashboard/campaigns/{id}
// (edit every term the agent API exposes, activate / pause, localized copy with fresh/stale per locale and the
// localize form, the public join page per language). The data is the agent API's own view (`campaignView`, with
// `campaignI18nView` from lib/i18n-freshness.ts) and every form posts to the dashboard REST, which runs the agent
// API's handlers: an activation below the minimum escrow answers the 402 page with the way to the wallet's top-up.
import { Router } from '@koa/router';
import { listAppsInOrgs } from '../../db/apps.js';
import { findCampaign, listCampaignsInOrgs } from '../../db/campaigns.js';
import { escapeHtml } from '../../lib/html.js';
import { campaignView } from '../agent/campaigns.js';
import { CAMPAIGN_FIELDS } from '../agent/field-schemas.js';
import type { AppContext, RequestState } from '../context.js';
import { JOIN_PAGE_LANGUAGES } from '../public/join-page-text.js';
import { analyticsPage } from './analytics-page.js';
import { buttonForm, csrfField, dashboardPage, orgLink, signedIn, type SignedIn, visibleOrNotFoundPage } from './layout.js';

const e = escapeHtml;
type View = ReturnType<typeof campaignView>;
const HOLDING = CAMPAIGN_FIELDS.holding_period_days;
const text = (x: unknown) => (typeof x === 'string' ? e(x) : '');

/** Activate or pause, whichever applies (archived campaigns have neither). */
export function statusButton(s: SignedIn, c: { id: string; status: unknown }, back: string): string {
  if (c.status === 'archived') return '';
  return c.status === 'active'
    ? buttonForm(s, `/api/campaigns/${c.id}/status`, 'Pause', { returnTo: back, fields: { status: 'paused' } })
    : buttonForm(s, `/api/campaigns/${c.id}/status`, 'Activate', { returnTo: back, fields: { status: 'active' } });
}

/** The campaign terms as form fields (create and edit share them); `c` fills in the current values. */
function termFields(prefix: string, c?: View): string {
  const v = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? e(x) : '');
  return `<label for="${prefix}-name">Name</label><input id="${prefix}-name" name="name" required maxlength="200" value="${v(c?.name)}">
<label for="${prefix}-description">Description${c ? '' : ' (optional)'}</label><input id="${prefix}-description" name="description" maxlength="5000" value="${v(c?.description)}">
<label for="${prefix}-pct">Commission (%)</label><input id="${prefix}-pct" name="commission_percentage" inputmode="decimal" required value="${v(c?.commission_percentage)}">
<label for="${prefix}-holding">Holding period (days, ${HOLDING.minimum} to ${HOLDING.maximum}; default 30)</label><input id="${prefix}-holding" name="holding_period_days" inputmode="numeric" value="${v(c?.holding_period_days)}">`;
}

async function listPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const orgIds = s.orgId ? [s.orgId] : [];
  const [apps, campaigns] = await Promise.all([listAppsInOrgs(ctx.deps.db, orgIds), listCampaignsInOrgs(ctx.deps.db, orgIds)]);
  const appName = new Map(apps.map((a) => [a.id, String(a.name)]));
  const back = ctx.originalUrl;
  const rows = campaigns.filter((c) => c.campaign_type !== 'FREE_ACCESS').map((c) => `<tr data-campaign="${e(c.id)}"><td><a href="${e(orgLink(s, `/dashboard/campaigns/${c.id}`))}">${e(String(c.name))}</a></td><td>${e(appName.get(c.app_id as string) ?? '')}</td><td>${e(String(c.campaign_type))}</td><td class="status">${e(String(c.status))}</td><td>${Number(c.commission_percentage)} %</td><td>${e(String(c.holding_period_days))} days</td><td><a href="${e(orgLink(s, `/dashboard/campaigns/${c.id}/analytics`))}">Analytics</a></td><td>${statusButton(s, c, back)}</td></tr>`).join('\n');
  const picked = apps.find((a) => a.id === ctx.query.app_id) ?? apps[0];
  const picker = apps.length > 1
    ? `<form method="get" action="/dashboard/campaigns">${s.orgIds.length > 1 && s.orgId ? `<input type="hidden" name="org" value="${e(s.orgId)}">` : ''}<label for="app-pick">App</label><select id="app-pick" name="app_id">${apps.map((a) => `<option value="${e(a.id)}"${a === picked ? ' selected' : ''}>${e(String(a.name))}</option>`).join('')}</select> <button type="submit">Pick</button></form>`
    : '';
  const create = picked
    ? `<h2>Create a campaign${apps.length > 1 ? '' : ` for ${e(String(picked.name))}`}</h2>${picker}
<form method="post" action="/api/apps/${e(picked.id)}/campaigns">${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">
${termFields('new')}
<label for="new-type">Who may join</label><select id="new-type" name="campaign_type"><option value="public">public: anyone with the join link</option><option value="private">private: invited creators</option><option value="invite_only">invite only</option></select>
<button type="submit">Create campaign (draft)</button></form>`
    : `<p>Create an app first (<a href="${e(orgLink(s, '/dashboard'))}">Apps</a>).</p>`;
  dashboardPage(ctx, s, 200, 'Campaigns', `${campaigns.length ? `<table><thead><tr><th>Campaign</th><th>App</th><th>Type</th><th>Status</th><th>Commission</th><th>Holding</th><th></th><th></th></tr></thead><tbody>
${rows}</tbody></table>` : '<p>No campaign yet.</p>'}
<p class="muted">New campaigns start as drafts. Activating needs the wallet's safe balance at or above the minimum escrow: <a href="${e(orgLink(s, '/dashboard/wallet'))}">top up the wallet</a>.</p>
${create}`);
}

function i18nSection(s: SignedIn, c: View, back: string): string {
  const locales = Object.entries(c.i18n.locales);
  const rows = locales.map(([locale, l]) => `<tr data-locale="${e(locale)}"><td><code>${e(locale)}</code></td><td>${text(l.name)}</td><td>${text(l.description)}</td><td class="${l.status === 'fresh' ? 'done' : 'open'}">${l.status}</td><td>${e(String(l.updated_at ?? ''))}</td></tr>`).join('\n');
  return `<h2 id="copy">Localized copy</h2>
<p class="muted">A locale is <strong>fresh</strong> while the name and description it translates are unchanged, <strong>stale</strong> once they change. Saving a locale replaces its copy and marks it fresh.</p>
${locales.length ? `<table aria-describedby="copy"><thead><tr><th>Locale</th><th>Name</th><th>Description</th><th>State</th><th>Updated</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No translations yet.</p>'}
<form method="post" action="/api/campaigns/${e(c.id)}/localize">${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">
<label for="loc-locale">Locale (e.g. de, pt-BR)</label><input id="loc-locale" name="locale" required pattern="[a-z]{2}(-[A-Z]{2})?">
<label for="loc-name">Translated name</label><input id="loc-name" name="name" maxlength="200">
<label for="loc-description">Translated description</label><input id="loc-description" name="description" maxlength="5000">
<button type="submit">Save translation</button></form>`;
}

/** Links to the public join page in each language it speaks and each locale the campaign has copy for. */
function joinSection(c: View): string {
  const langs = [...new Set([...JOIN_PAGE_LANGUAGES, ...Object.keys(c.i18n.locales)])];
  const note = c.status === 'active' ? '' : `<p class="open">The campaign is ${e(String(c.status))}: the join page answers "not open" until it is activated.</p>`;
  return `<h2>Public join page</h2>${note}<ul>${langs.map((l) => `<li><a href="${e(`${c.join_url}?lang=${encodeURIComponent(l)}`)}" target="_blank" rel="noopener">Preview in ${e(l)}</a></li>`).join('')}</ul>
<p class="muted">Share <code>${e(c.join_url)}</code>; creators see their browser's language with <code>?lang=</code>.</p>`;
}

async function detailPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const found = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  if (!found) return;
  const c: View = campaignView(ctx, found);
  const back = ctx.originalUrl;
  dashboardPage(ctx, s, 200, `Campaign ${String(c.name)}`, `<p class="muted">Campaign <code>${e(c.id)}</code> of app <a href="${e(orgLink(s, `/dashboard/apps/${String(c.app_id)}`))}"><code>${e(String(c.app_id))}</code></a>, ${e(String(c.campaign_type))}. <a href="${e(orgLink(s, `/dashboard/campaigns/${c.id}/analytics`))}">Analytics</a> · <a href="/api/campaigns/${e(c.id)}">As JSON</a></p>
<h2>Status</h2><p>Status: <strong id="campaign-status">${e(String(c.status))}</strong></p>${statusButton(s, c, back)}
<p class="muted">Activating needs the wallet's safe balance at or above the minimum escrow (<a href="${e(orgLink(s, '/dashboard/wallet'))}">wallet and top-up</a>). Paused campaigns' codes stop attributing.</p>
<h2>Terms</h2><form method="post" action="/api/campaigns/${e(c.id)}">${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">
${termFields('edit', c)}
<p class="muted">A new holding period applies to commissions earned from then on.</p>
<button type="submit">Save terms</button></form>
${i18nSection(s, c, back)}
${joinSection(c)}`);
}

export function campaignsRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/campaigns', listPage);
  router.get('/dashboard/campaigns/:campaign_id', detailPage);
  router.get('/dashboard/campaigns/:campaign_id/analytics', analyticsPage);
  return router;
}
