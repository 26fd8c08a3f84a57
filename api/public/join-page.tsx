// GET {dashboard_url}/join/{campaign_id}?lang=xx: the page a creator opens to join a campaign (CONTRACT.md "Public
// creator join"). Campaign name, description and commission, and a form whose script posts to the join endpoint.
// Invitees arrive with `?invitation_token=...`, which the script forwards; the token is never rendered.
import { findCampaignForJoin, type JoinCampaign } from '../../db/campaign-join.js';
import { isOpenForJoining, requiresInvitation } from '../../lib/campaign-join.js';
import type { InputHTMLAttributes } from 'preact';
import { JsonScript, safeUrl, type Page } from '../view-kit/html.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import type { StaticScript } from '../dashboard/static-assets.js';
import { joinPageText, pickJoinPageLanguage, type JoinPageLanguage, type JoinPageText } from './join-page-text.js';

export async function showJoinPage(ctx: AppContext): Promise<void> {
  const lang = pickJoinPageLanguage(ctx.query.lang);
  const text = joinPageText(lang);
  // The URL may carry an invitation token: keep it out of caches and of Referer headers.
  ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  const campaign = await findCampaignForJoin(ctx.deps.db, (ctx.params as { campaignId: string }).campaignId);
  if (!campaign || !isOpenForJoining(campaign)) return sendPage(ctx, 404, notOpenPage(lang, text));
  const baseUrl = ctx.deps.config.BASE_URL;
  sendPage(
    ctx,
    200,
    joinPage(campaign, lang, text, {
      endpoint: `${baseUrl}/api/public/campaigns/${encodeURIComponent(campaign.id)}/join`,
      showInvitationNote: requiresInvitation(campaign) && !ctx.query.invitation_token,
      connectSrc: new URL(baseUrl).origin,
      portalUrl: `${ctx.deps.config.DASHBOARD_URL}/creator`,
    }),
  );
}

function notOpenPage(lang: JoinPageLanguage, text: JoinPageText): Page {
  return {
    title: text.notOpenTitle,
    lang,
    body: (
      <>
        <h1>{text.notOpenTitle}</h1>
        {'\n'}
        <p>{text.notOpen}</p>
      </>
    ),
  };
}

interface JoinPageOptions {
  endpoint: string;
  showInvitationNote: boolean;
  connectSrc: string;
  portalUrl: string;
}

/** The page's script (api/dashboard/browser/join-page.js): it posts the form as JSON with the words of the JSON block. */
const JOIN_PAGE_SCRIPT: StaticScript = '/dashboard/static/join-page.js';

type FieldName = keyof JoinPageText['fields'];
type InputAttributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

const Field = ({ name, text, ...attrs }: { name: FieldName; text: JoinPageText } & InputAttributes) => (
  <>
    <label for={name}>{text.fields[name]}</label>
    {'\n'}
    <input id={name} name={name} {...(attrs as InputHTMLAttributes<HTMLInputElement>)} />
  </>
);

function joinPage(campaign: JoinCampaign, lang: JoinPageLanguage, text: JoinPageText, opts: JoinPageOptions): Page {
  const copy = localizedCopy(campaign, lang);
  const percentage = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 }).format(campaign.commission_percentage);
  const scriptText = {
    fields: text.fields,
    joined: text.joined,
    alreadyJoined: text.alreadyJoined,
    invalid: text.invalid,
    errors: text.errors,
    failed: text.failed,
    done: text.done,
  };
  const body = (
    <>
      <h1>{text.title(copy.name)}</h1>
      {copy.description ? <p class="muted">{copy.description}</p> : null}
      <p>
        <strong>{text.commission(percentage)}</strong>
      </p>
      <p>{text.intro}</p>
      {opts.showInvitationNote ? <p class="error">{text.invitationNeeded}</p> : null}
      <form id="join-form" data-endpoint={opts.endpoint}>
        <Field text={text} name="name" required maxlength={200} autocomplete="name" />
        <Field text={text} name="email" type="email" required maxlength={254} autocomplete="email" />
        <Field text={text} name="social_handle" maxlength={100} placeholder="@" />
        <Field text={text} name="follower_count" type="number" min={0} step={1} inputmode="numeric" />
        <Field text={text} name="code" maxlength={20} autocapitalize="characters" spellcheck={false} />
        <p class="muted">{text.codeHint}</p>
        <button type="submit">{text.submit}</button>
        <p id="join-error" class="error" role="alert" hidden></p>
      </form>
      <section id="join-done" hidden aria-labelledby="join-done-text">
        <h2 id="join-done-text" tabindex={-1}></h2>
        <p>
          <strong>{text.done.link}</strong>
        </p>
        <p>
          <a id="join-link"></a>{' '}
          <button type="button" class="secondary copy" data-copy="join-link">
            {text.done.copy}
          </button>
        </p>
        <p>
          <strong>{text.done.code}</strong>
        </p>
        <p>
          <span class="code" id="join-code"></span>{' '}
          <button type="button" class="secondary copy" data-copy="join-code">
            {text.done.copy}
          </button>
        </p>
        <div id="join-qr"></div>
        <p class="muted">{text.shareHint}</p>
        <p id="join-mailed"></p>
        <p>
          <a id="join-portal" class="button" href={safeUrl(opts.portalUrl)}>
            {text.done.portal}
          </a>
        </p>
      </section>
      <JsonScript id="join-text" value={scriptText} />
    </>
  );
  return { title: text.title(copy.name), lang, body, scripts: [JOIN_PAGE_SCRIPT], connectSrc: opts.connectSrc };
}

/** The campaign's own translation for `lang` when it has one (campaigns.i18n), else its source text. */
function localizedCopy(campaign: JoinCampaign, lang: JoinPageLanguage): { name: string; description: string | null } {
  const t = campaign.i18n?.[lang];
  return {
    name: typeof t?.name === 'string' && t.name ? t.name : campaign.name,
    description: typeof t?.description === 'string' && t.description ? t.description : campaign.description,
  };
}
