// GET /dashboard/campaigns (the organization's campaigns and the create form) and GET /dashboard/campaigns/{id}
// (edit every term the agent API exposes, activate / pause, localized copy with fresh/stale per locale and the
// localize form, the milestone bonus rules editor (bonus-rules-editor.tsx), the public join page per language). The data is the agent API's
// own view (`campaignView`, with `campaignI18nView` from lib/i18n-freshness.ts) and every form posts to the dashboard REST, which runs the
// agent API's handlers: an activation below the minimum escrow answers the 402 page with the way to the wallet's top-up.
import { listAppsInOrgs } from '../../../db/apps.js';
import { findCampaign, findFraudSignalActions, listCampaignsInOrgs } from '../../../db/campaigns.js';
import { safeUrl } from '../../view-kit/html.js';
import { campaignView } from '../../agent/campaigns.js';
import type { AppContext } from '../../context.js';
import { JOIN_PAGE_LANGUAGES } from '../../public/join-page-text.js';
import { LocalTime, StatusBadge } from '../../view-kit/ui.js';
import { TermFields } from './campaign-fields.js';
import { BonusRulesSection, saveBonusRulesFrom, type RulesForm } from './bonus-rules-editor.js';
import { saveSignalActionsFrom, SignalSettingsSection, type SignalsForm } from './signal-settings.js';
import {
  CampaignStatusButton,
  dashboardPage,
  Hidden,
  OrgLink,
  orgLink,
  PostForm,
  stateFor,
  Table,
  type SignedIn,
} from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';
import { moneyFactsOf, MoneyFactsList } from '../wallet/money-facts.js';

type View = ReturnType<typeof campaignView>;
const text = (x: unknown) => (typeof x === 'string' ? x : '');

export async function listPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const orgIds = s.orgId ? [s.orgId] : [];
  const [apps, campaigns, facts] = await Promise.all([
    listAppsInOrgs(ctx.deps.db, orgIds),
    listCampaignsInOrgs(ctx.deps.db, orgIds),
    s.orgId ? moneyFactsOf(ctx, s.orgId) : undefined,
  ]);
  const appName = new Map(apps.map((a) => [a.id, String(a.name)]));
  const back = ctx.originalUrl;
  const picked = apps.find((a) => a.id === ctx.query.app_id) ?? apps[0];
  const picker =
    apps.length > 1 ? (
      <form method="get" action="/dashboard/campaigns">
        {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
        <label for="app-pick">App</label>
        <select id="app-pick" name="app_id">
          {apps.map((a) => (
            <option value={a.id} selected={a === picked}>
              {String(a.name)}
            </option>
          ))}
        </select>{' '}
        <button type="submit">Pick</button>
      </form>
    ) : null;
  dashboardPage(
    ctx,
    s,
    200,
    'Campaigns',
    <>
      {campaigns.length ? (
        <Table columns={['Campaign', 'App', 'Type', 'Status', 'Commission', 'Basis', 'Holding', '', '']}>
          {campaigns
            .filter((c) => c.campaign_type !== 'FREE_ACCESS')
            .map((c) => (
              <tr data-campaign={c.id}>
                <td>
                  <OrgLink s={s} to={`/dashboard/campaigns/${c.id}`}>
                    {String(c.name)}
                  </OrgLink>
                </td>
                <td>{appName.get(c.app_id as string) ?? ''}</td>
                <td>{String(c.campaign_type)}</td>
                <td class="status">
                  <StatusBadge status={c.status} />
                </td>
                <td>{Number(c.commission_percentage)} %</td>
                <td class="basis">{String(c.commission_basis)}</td>
                <td>{String(c.holding_period_days)} days</td>
                <td>
                  <OrgLink s={s} to={`/dashboard/campaigns/${c.id}/analytics`}>
                    Analytics
                  </OrgLink>
                </td>
                <td>
                  <CampaignStatusButton s={s} campaign={c} returnTo={back} />
                </td>
              </tr>
            ))}
        </Table>
      ) : (
        <p>No campaign yet.</p>
      )}
      <p class="muted">New campaigns start as drafts. Before you create or activate one:</p>
      {facts ? <MoneyFactsList s={s} facts={facts} /> : null}
      {picked ? (
        <>
          <h2>Create a campaign{apps.length > 1 ? '' : ` for ${String(picked.name)}`}</h2>
          {picker}
          <PostForm s={s} action={`/api/apps/${picked.id}/campaigns`} returnTo={back} formId="new-campaign">
            <TermFields prefix="new" state={stateFor(s, 'new-campaign')} />
            <label for="new-type">Who may join</label>
            <select id="new-type" name="campaign_type">
              {[
                ['public', 'public: anyone with the join link'],
                ['private', 'private: invited creators'],
                ['invite_only', 'invite only'],
              ].map(([v, label]) => (
                <option value={v} selected={stateFor(s, 'new-campaign')?.values?.campaign_type === v}>
                  {label}
                </option>
              ))}
            </select>
            <button type="submit">Create campaign (draft)</button>
          </PostForm>
        </>
      ) : (
        <p>
          Create an app first (
          <OrgLink s={s} to="/dashboard">
            Apps
          </OrgLink>
          ).
        </p>
      )}
    </>,
  );
}

function I18nSection({ s, c, back }: { s: SignedIn; c: View; back: string }) {
  const locales = Object.entries(c.i18n.locales);
  return (
    <>
      <h2 id="copy">Localized copy</h2>
      <p class="muted">
        A locale is <strong>fresh</strong> while the name and description it translates are unchanged, <strong>stale</strong> once they
        change. Saving a locale replaces its copy and marks it fresh.
      </p>
      {locales.length ? (
        <Table columns={['Locale', 'Name', 'Description', 'State', 'Updated']} label="Localized copy">
          {locales.map(([locale, l]) => (
            <tr data-locale={locale}>
              <td>
                <code>{locale}</code>
              </td>
              <td>{text(l.name)}</td>
              <td>{text(l.description)}</td>
              <td class={l.status === 'fresh' ? 'done' : 'open'}>{l.status}</td>
              <td>
                <LocalTime at={l.updated_at} />
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p>No translations yet.</p>
      )}
      <PostForm s={s} action={`/api/campaigns/${c.id}/localize`} returnTo={back}>
        <label for="loc-locale">Locale (e.g. de, pt-BR)</label>
        <input id="loc-locale" name="locale" required pattern="[a-z]{2}(-[A-Z]{2})?" />
        <label for="loc-name">Translated name</label>
        <input id="loc-name" name="name" maxlength={200} />
        <label for="loc-description">Translated description</label>
        <input id="loc-description" name="description" maxlength={5000} />
        <button type="submit">Save translation</button>
      </PostForm>
    </>
  );
}

/** Links to the public join page in each language it speaks and each locale the campaign has copy for. */
function JoinSection({ c }: { c: View }) {
  const langs = [...new Set([...JOIN_PAGE_LANGUAGES, ...Object.keys(c.i18n.locales)])];
  return (
    <>
      <h2>Public join page</h2>
      {c.status === 'active' ? null : (
        <p class="open">The campaign is {String(c.status)}: the join page answers "not open" until it is activated.</p>
      )}
      <ul>
        {langs.map((l) => (
          <li>
            <a href={safeUrl(`${c.join_url}?lang=${encodeURIComponent(l)}`)} target="_blank" rel="noopener">
              Preview in {l}
            </a>
          </li>
        ))}
      </ul>
      <p class="muted">
        Share <code>{c.join_url}</code>; creators see their browser's language with <code>?lang=</code>.
      </p>
    </>
  );
}

export async function detailPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (s) await showDetail(ctx, s, 200);
}

/** The campaign page; `forms` holds the bonus-rules or signal-settings form as posted when its save was refused. */
async function showDetail(
  ctx: AppContext,
  s: SignedIn,
  status: number,
  forms: { rules?: RulesForm; signals?: SignalsForm } = {},
): Promise<void> {
  const found = visibleOrNotFoundPage(ctx, s, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  if (!found) return;
  const c: View = campaignView(ctx, found);
  const back = orgLink(s, `/dashboard/campaigns/${c.id}`);
  const [facts, signalActions] = await Promise.all([moneyFactsOf(ctx, found.org_id), findFraudSignalActions(ctx.deps.db, found.id)]);
  dashboardPage(
    ctx,
    s,
    status,
    `Campaign ${String(c.name)}`,
    <>
      <p class="muted">
        Campaign <code>{c.id}</code> of app{' '}
        <OrgLink s={s} to={`/dashboard/apps/${String(c.app_id)}`}>
          <code>{String(c.app_id)}</code>
        </OrgLink>
        , {String(c.campaign_type)}.{' '}
        <OrgLink s={s} to={`/dashboard/campaigns/${c.id}/analytics`}>
          Analytics
        </OrgLink>{' '}
        · <a href={safeUrl(`/api/campaigns/${c.id}`)}>As JSON</a>
      </p>
      <h2>Status</h2>
      <p>
        Status: <StatusBadge status={c.status} id="campaign-status" />
      </p>
      <MoneyFactsList s={s} facts={facts} holdingDays={Number(c.holding_period_days)} />
      <CampaignStatusButton s={s} campaign={c} returnTo={back} />
      <p class="muted">Paused campaigns' codes stop attributing.</p>
      <h2>Terms</h2>
      <PostForm s={s} action={`/api/campaigns/${c.id}`} returnTo={back} formId="edit-campaign">
        <TermFields prefix="edit" c={c} state={stateFor(s, 'edit-campaign')} />
        <p class="muted">A new holding period applies to commissions earned from then on.</p>
        <button type="submit">Save terms</button>
      </PostForm>
      <BonusRulesSection s={s} campaignId={c.id} rules={found.bonus_rules} form={forms.rules} />
      <SignalSettingsSection s={s} campaignId={c.id} stored={signalActions} form={forms.signals} />
      <I18nSection s={s} c={c} back={back} />
      <JoinSection c={c} />
    </>,
  );
}

export const saveBonusRules = saveBonusRulesFrom((ctx, s, status, rules) => showDetail(ctx, s, status, { rules }));
export const saveSignalActions = saveSignalActionsFrom((ctx, s, status, signals) => showDetail(ctx, s, status, { signals }));
