// GET {dashboard_url}/join/{campaign_id}?lang=xx: the page a creator opens to join a campaign (CONTRACT.md "Public
// creator join"). Campaign name, description and commission, and a form whose script posts to the join endpoint.
// Invitees arrive with `?invitation_token=...`, which the script forwards; the token is never rendered.
import { findCampaignForJoin, type JoinCampaign } from '../../db/campaign-join.js';
import { isOpenForJoining, requiresInvitation } from '../../lib/campaign-join.js';
import { escapeHtml, jsonForHtml, type Page } from '../../lib/html.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import { JOIN_PAGE_SCRIPT } from './join-page-script.js';
import { joinPageText, pickJoinPageLanguage, type JoinPageLanguage, type JoinPageText } from './join-page-text.js';

export async function showJoinPage(ctx: AppContext): Promise<void> {
  const lang = pickJoinPageLanguage(ctx.query.lang);
  const text = joinPageText(lang);
  // The URL may carry an invitation token: keep it out of caches and of Referer headers.
  ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  const campaign = await findCampaignForJoin(ctx.deps.db, (ctx.params as { campaignId: string }).campaignId);
  if (!campaign || !isOpenForJoining(campaign)) return sendPage(ctx, 404, notOpenPage(lang, text));
  const baseUrl = ctx.deps.config.BASE_URL;
  sendPage(ctx, 200, joinPage(campaign, lang, text, {
    endpoint: `${baseUrl}/api/public/campaigns/${encodeURIComponent(campaign.id)}/join`,
    showInvitationNote: requiresInvitation(campaign) && !ctx.query.invitation_token,
    connectSrc: new URL(baseUrl).origin,
  }));
}

function notOpenPage(lang: JoinPageLanguage, text: JoinPageText): Page {
  return { title: text.notOpenTitle, lang, body: `<h1>${escapeHtml(text.notOpenTitle)}</h1>\n<p>${escapeHtml(text.notOpen)}</p>` };
}

interface JoinPageOptions { endpoint: string; showInvitationNote: boolean; connectSrc: string }

function joinPage(campaign: JoinCampaign, lang: JoinPageLanguage, text: JoinPageText, opts: JoinPageOptions): Page {
  const copy = localizedCopy(campaign, lang);
  const percentage = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 }).format(campaign.commission_percentage);
  const field = (name: keyof JoinPageText['fields'], attrs: string) =>
    `<label for="${name}">${escapeHtml(text.fields[name])}</label>\n<input id="${name}" name="${name}" ${attrs}>`;
  const scriptText = { fields: text.fields, joined: text.joined, alreadyJoined: text.alreadyJoined, invalid: text.invalid, errors: text.errors, failed: text.failed };
  const body = `<h1>${escapeHtml(text.title(copy.name))}</h1>
${copy.description ? `<p class="muted">${escapeHtml(copy.description)}</p>\n` : ''}<p><strong>${escapeHtml(text.commission(percentage))}</strong></p>
<p>${escapeHtml(text.intro)}</p>
${opts.showInvitationNote ? `<p class="error">${escapeHtml(text.invitationNeeded)}</p>\n` : ''}<form id="join-form" data-endpoint="${escapeHtml(opts.endpoint)}">
${field('name', 'required maxlength="200" autocomplete="name"')}
${field('email', 'type="email" required maxlength="254" autocomplete="email"')}
${field('social_handle', 'maxlength="100" placeholder="@"')}
${field('follower_count', 'type="number" min="0" step="1" inputmode="numeric"')}
${field('code', 'maxlength="20" autocapitalize="characters" spellcheck="false"')}
<p class="muted">${escapeHtml(text.codeHint)}</p>
<button type="submit">${escapeHtml(text.submit)}</button>
<p id="join-error" class="error" role="alert" hidden></p>
</form>
<section id="join-done" hidden>
<p id="join-done-text"></p>
<p class="code" id="join-code"></p>
<p class="muted">${escapeHtml(text.shareHint)}</p>
</section>
<script type="application/json" id="join-text">${jsonForHtml(scriptText)}</script>`;
  return { title: text.title(copy.name), lang, body, script: JOIN_PAGE_SCRIPT, connectSrc: opts.connectSrc };
}

/** The campaign's own translation for `lang` when it has one (campaigns.i18n), else its source text. */
function localizedCopy(campaign: JoinCampaign, lang: JoinPageLanguage): { name: string; description: string | null } {
  const t = campaign.i18n?.[lang];
  return {
    name: typeof t?.name === 'string' && t.name ? t.name : campaign.name,
    description: typeof t?.description === 'string' && t.description ? t.description : campaign.description,
  };
}
