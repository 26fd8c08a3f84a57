// GET /dashboard/apps/{app_id}: the setup page. Everything comes from GET /api/apps/{app_id}/setup's computation
// (setupOf: the agent API's checklist and validation status), and every button is a plain form posting to the
// dashboard REST (api/dashboard/rest.ts), so the page works without JavaScript; secrets appear once, on the page
// that answers the regenerate form.
import { findApp } from '../../db/apps.js';
import { listCampaignsInOrgs } from '../../db/campaigns.js';
import { escapeHtml } from '../../lib/html.js';
import type { AppContext } from '../context.js';
import { setupOf } from './app-handlers.js';
import { credentialForm } from './credential-form.js';
import { buttonForm, csrfField, dashboardPage, orgLink, signedIn, type SignedIn, visibleOrNotFoundPage } from './layout.js';

const e = escapeHtml;
type Setup = Awaited<ReturnType<typeof setupOf>>;
const when = (d: unknown) => (d ? new Date(d as string).toISOString().replace('T', ' ').slice(0, 19) : 'never');
const age = (seconds: number | null) => (seconds === null ? '' : seconds < 120 ? `${seconds} s ago` : seconds < 7200 ? `${Math.round(seconds / 60)} min ago` : `${Math.round(seconds / 3600)} h ago`);

function checklistSection(setup: Setup): string {
  const rows = setup.checklist.map((item) => {
    const open = 'next_action' in item ? item : undefined;
    return `<tr data-step="${e(item.step)}"><td><code>${e(item.step)}</code></td><td class="${item.done ? 'done' : 'open'}">${item.done ? 'done' : 'open'}</td><td>${e(item.evidence ?? '')}${open
      ? `${open.next_action ? `<p><strong>Next:</strong> ${e(open.next_action)}</p>` : ''}${(open.troubleshooting ?? []).map((c) => `<p class="muted"><strong>Likely cause:</strong> ${e(c)}</p>`).join('')}`
      : ''}</td></tr>`;
  }).join('\n');
  return `<h2 id="checklist">Integration checklist ${setup.live ? '<span class="done">live</span>' : '<span class="open">not live yet</span>'}</h2>
<table aria-describedby="checklist"><thead><tr><th>Step</th><th>State</th><th>Evidence, next step and likely cause</th></tr></thead><tbody>
${rows}</tbody></table><p class="muted">Attributed conversions through the app's purchase path: ${setup.attributed_conversion_count} (production: ${setup.production_attributed_conversion_count}). <a href="">Refresh</a></p>`;
}

function keysSection(s: SignedIn, setup: Setup, back: string): string {
  const id = setup.app.app_id;
  const rejected = setup.rejected_webhooks_today;
  return `<h2>Keys and webhook</h2>
<p><strong>SDK key</strong> (public, ships in the app): <code id="sdk-key">${e(setup.sdk_key as string)}</code></p>
<p><strong>Webhook URL</strong> for the subscription provider: <code>${e(setup.webhook.url)}</code> · ${setup.webhook.connected ? `<span class="done">connected ${e(when(setup.webhook.connected_at))}</span>` : '<span class="open">not connected yet</span> (send the provider\'s TEST event)'}</p>
<p><strong>Webhook secret</strong>: shown once, when created or regenerated. Regenerating stops the old one at once.</p>
${buttonForm(s, `/api/apps/${id}/regenerate-webhook-secret`, 'Regenerate webhook secret', { returnTo: back })}
<p><strong>Rejected webhook calls today</strong>: <span id="rejected-count">${rejected.total}</span>${rejected.total > 0 ? ` (${Object.entries(rejected.by_reason).map(([k, v]) => `${e(k)}: ${v}`).join(', ')}; last ${e(when(rejected.last_at))})` : ''}</p>
<p><strong>Purchase API key</strong> (your server, <code>POST ${e(setup.purchase_api.endpoint)}</code>): shown once; regenerating stops the old one at once.</p>
${buttonForm(s, `/api/apps/${id}/regenerate-purchase-api-key`, 'Regenerate purchase API key', { returnTo: back })}`;
}

function sdkSection(setup: Setup): string {
  const rows = Object.entries(setup.sdk_init).map(([platform, p]) => `<tr><td>${platform}</td><td>${p.initialized_at
    ? `${e(when(p.initialized_at))} (${age(p.age_seconds)}) <span class="${p.fresh ? 'done">fresh' : 'open">stale: no init in 24 h'}</span>`
    : '<span class="muted">never</span>'}</td><td>${e([p.sdk_name, p.sdk_version].filter(Boolean).join(' '))}${p.app_version ? ` (app ${e(p.app_version)})` : ''}</td></tr>`).join('');
  return `<h2>SDK initialization per platform</h2><table><thead><tr><th>Platform</th><th>Last init</th><th>SDK</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function validationSection(s: SignedIn, setup: Setup, back: string): string {
  const id = setup.app.app_id;
  return `<h2>Purchase validation per platform</h2>${Object.entries(setup.validation).map(([platform, v]) => {
    const c = v.store_credential;
    const state = v.validation_path === 'store-direct'
      ? (v.ready ? '<span class="done">credentials green</span>' : '<span class="open">credentials not green</span>')
      : (v.ready ? '<span class="done">provider webhook connected</span>' : '<span class="muted">provider webhook not connected by a TEST event</span>');
    return `<fieldset><legend>${platform}: ${v.validation_path === 'store-direct' ? 'store-direct' : 'subscription provider'}, ${state}</legend>
<p>Store credential: ${c.present ? `uploaded ${e(when(c.uploaded_at))}, check <strong>${e(String(c.check_status))}</strong>${c.passed ? ' <span class="done">green</span>' : ''}${c.last_error ? ` (${e(String(c.last_error))})` : ''}` : 'none uploaded'}</p>
${credentialForm(`/api/apps/${id}/credentials`, platform, `${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">`)}
${c.present ? buttonForm(s, `/api/apps/${id}/validate-store-credentials`, 'Run the green-check', { returnTo: back, fields: { platform } }) : ''}
${c.passed && v.validation_path !== 'store-direct' ? buttonForm(s, `/api/apps/${id}/activate-store-direct`, `Switch ${platform} to store-direct`, { returnTo: back, fields: { platform } }) : ''}
</fieldset>`;
  }).join('\n')}`;
}

function campaignsSection(s: SignedIn, appId: string, campaigns: { id: string; name: unknown; status: unknown; commission_percentage: unknown }[], back: string): string {
  const rows = campaigns.map((c) => `<tr><td>${e(String(c.name))}</td><td>${e(String(c.status))}</td><td>${Number(c.commission_percentage)} %</td><td>${c.status === 'active'
    ? buttonForm(s, `/api/campaigns/${c.id}/status`, 'Pause', { returnTo: back, fields: { status: 'paused' } })
    : c.status === 'archived' ? '' : buttonForm(s, `/api/campaigns/${c.id}/status`, 'Activate', { returnTo: back, fields: { status: 'active' } })}</td></tr>`).join('');
  return `<h2>Campaigns</h2>${campaigns.length ? `<table><thead><tr><th>Name</th><th>Status</th><th>Commission</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No campaign yet.</p>'}
<p class="muted">Activating needs the wallet's safe balance at or above the minimum escrow: <a href="${e(orgLink(s, '/dashboard/wallet'))}">top up the wallet</a>.</p>
<form method="post" action="/api/apps/${e(appId)}/campaigns">${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">
<label for="cmp-name">New campaign name</label><input id="cmp-name" name="name" required maxlength="200">
<label for="cmp-pct">Commission (%)</label><input id="cmp-pct" name="commission_percentage" inputmode="decimal" required>
<button type="submit">Create campaign (draft)</button></form>`;
}

export async function setupPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const app = visibleOrNotFoundPage(ctx, s, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!app) return;
  const [setup, campaigns] = await Promise.all([setupOf(ctx, app), listCampaignsInOrgs(ctx.deps.db, [app.org_id], { appId: app.id })]);
  const back = ctx.originalUrl;
  dashboardPage(ctx, s, 200, `Set up ${String(app.name)}`, [
    `<p class="muted">App <code>${e(app.id)}</code>, slug <code>${e(String(app.slug))}</code>. <a href="/api/apps/${e(app.id)}/setup">This page as JSON</a> · <a href="${e(orgLink(s, `/dashboard/apps/${encodeURIComponent(app.id)}/events`))}">Live events</a></p>`,
    checklistSection(setup), keysSection(s, setup, back), campaignsSection(s, app.id, campaigns, back), sdkSection(setup), validationSection(s, setup, back),
  ].join('\n'));
}
