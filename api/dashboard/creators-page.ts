// GET /dashboard/creators: the organization's invite capacity (the wallet answer's own figures), then per campaign
// its creators with their codes and production performance (the agent API's affiliates rows), a form to invite one
// creator and a batch form (a textarea of `email,name,lang` lines, up to the agent API's 100), and the latest
// invitations with a withdraw button on the pending ones. Every form posts to the dashboard REST
// (api/dashboard/creators-rest.ts), whose handlers are the agent API's.
import { Router } from '@koa/router';
import { listCampaignsInOrgs, type AgentCampaignRow } from '../../db/campaigns.js';
import { listCampaignAffiliates, listInvitations, type InvitationView } from '../../db/invitations.js';
import { findOrgBillingSettings, getInviteUsage } from '../../db/organizations.js';
import { escapeHtml as e } from '../../lib/html.js';
import { MAX_BATCH } from '../agent/invitations.js';
import { inviteCapacityView, inviteLimits } from '../agent/wallet.js';
import type { AppContext, RequestState } from '../context.js';
import { when } from './app-picker.js';
import { buttonForm, csrfField, dashboardPage, orgLink, signedIn, type SignedIn } from './layout.js';

async function capacitySection(ctx: AppContext, orgId: string): Promise<string> {
  const [settings, usage] = await Promise.all([findOrgBillingSettings(ctx.deps.db, orgId), getInviteUsage(ctx.deps.db, orgId)]);
  if (!settings) return '';
  const { slots, emails } = inviteLimits(settings, ctx.deps.config);
  const c = inviteCapacityView(slots, emails, usage);
  return `<h2>Invite capacity</h2><table id="invite-capacity"><tbody>
<tr><th scope="row">Marketplace slots (pending invitations)</th><td id="slots-available">${c.marketplace_slots_available} of ${c.marketplace_slots_total} free</td></tr>
<tr><th scope="row">Invitation emails today (UTC)</th><td id="emails-remaining">${c.emails_remaining_today} of ${c.daily_email_budget} left</td></tr>
</tbody></table><p class="muted">A withdrawn, accepted or expired invitation frees its slot. Inviting needs the wallet's minimum escrow.</p>`;
}

async function campaignSection(ctx: AppContext, s: SignedIn, c: AgentCampaignRow, back: string): Promise<string> {
  const creators = await listCampaignAffiliates(ctx.deps.db, c.id);
  const rows = creators.map((a) => `<tr><td>${e(a.name)}${a.social_handle ? ` <span class="muted">${e(a.social_handle)}</span>` : ''}</td><td><code>${e(a.code)}</code></td><td>${e(a.status)}</td><td>${e(a.source)}</td><td>${e(when(a.joined_at))}</td><td>${a.clicks}</td><td>${a.installs}</td><td>${a.production_conversions}</td></tr>`).join('');
  const id = e(c.id);
  const hidden = `${csrfField(s)}<input type="hidden" name="return_to" value="${e(back)}">`;
  return `<section id="campaign-${id}"><h2>${e(String(c.name))} <span class="muted">(${e(String(c.status))}, ${e(String(c.campaign_type))})</span></h2>
${creators.length ? `<table><thead><tr><th>Creator</th><th>Code</th><th>Code status</th><th>Joined by</th><th>Joined</th><th>Clicks</th><th>Installs</th><th>Production conversions</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No creator has joined yet.</p>'}
<form method="post" action="/api/campaigns/${id}/invite">${hidden}<fieldset><legend>Invite a creator to ${e(String(c.name))}</legend>
<label for="inv-email-${id}">Creator email</label><input id="inv-email-${id}" name="email" type="email" required maxlength="254">
<label for="inv-name-${id}">Name (optional)</label><input id="inv-name-${id}" name="name" maxlength="200">
<label for="inv-lang-${id}">Language of the join page (optional, e.g. en, de)</label><input id="inv-lang-${id}" name="lang" maxlength="12">
<label for="inv-msg-${id}">Personal message (optional)</label><textarea id="inv-msg-${id}" name="message" maxlength="2000"></textarea>
<button type="submit">Send invitation</button></fieldset></form>
<form method="post" action="/api/campaigns/${id}/invite">${hidden}<fieldset><legend>Invite several creators to ${e(String(c.name))}</legend>
<label for="inv-batch-${id}">One creator per line: email, name, language (CSV; up to ${MAX_BATCH} lines; name and language optional)</label>
<textarea id="inv-batch-${id}" name="batch" rows="5" required placeholder="ana@example.com, Ana, es"></textarea>
<label for="inv-bmsg-${id}">Message for all (optional)</label><textarea id="inv-bmsg-${id}" name="message" maxlength="2000"></textarea>
<button type="submit">Send invitations</button></fieldset></form></section>`;
}

function invitationsSection(s: SignedIn, rows: InvitationView[], campaigns: Map<string, string>, back: string): string {
  if (rows.length === 0) return '<h2>Invitations</h2><p class="muted">No invitations yet.</p>';
  const body = rows.map((i) => `<tr data-invitation="${e(i.id)}"><td>${e(String(i.email))}</td><td>${e(campaigns.get(String(i.campaign_id)) ?? String(i.campaign_id))}</td><td class="inv-status">${e(i.status)}</td><td>${e(when(i.created_at))}</td><td>${e(when(i.expires_at))}</td><td>${i.status === 'PENDING'
    ? buttonForm(s, `/api/invitations/${i.id}/withdraw`, 'Withdraw', { returnTo: back })
    : ''}</td></tr>`).join('\n');
  return `<h2>Invitations (latest 100)</h2><table id="invitations"><thead><tr><th>Email</th><th>Campaign</th><th>Status</th><th>Sent</th><th>Expires</th><th></th></tr></thead><tbody>
${body}</tbody></table>`;
}

async function creatorsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Creators', '<p>You belong to no organization.</p>');
  const db = ctx.deps.db;
  const back = orgLink(s, '/dashboard/creators');
  const [campaigns, invitations] = await Promise.all([
    listCampaignsInOrgs(db, [s.orgId]), listInvitations(db, [s.orgId], { limit: 100 }),
  ]);
  // FREE_ACCESS campaigns hold free-access codes, not creators (the invite handler answers 409 for them).
  const withCreators = campaigns.filter((c) => c.campaign_type !== 'FREE_ACCESS' && c.status !== 'archived');
  const sections = await Promise.all(withCreators.map((c) => campaignSection(ctx, s, c, back)));
  const names = new Map(campaigns.map((c) => [c.id, String(c.name)]));
  dashboardPage(ctx, s, 200, 'Creators', [
    await capacitySection(ctx, s.orgId),
    sections.length ? sections.join('\n') : `<p>No campaign takes creators yet: create one on an app's <a href="${e(orgLink(s, '/dashboard'))}">setup page</a>.</p>`,
    invitationsSection(s, invitations, names, back),
  ].join('\n'));
}

export function creatorsRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/creators', creatorsPage);
  return router;
}
