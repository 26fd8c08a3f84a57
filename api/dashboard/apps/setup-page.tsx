// GET /dashboard/apps/{app_id}: the setup page. Everything comes from GET /api/apps/{app_id}/setup's computation
// (setupOf: the agent API's checklist and validation status): first the steps for humans with each open step's action
// in place (setup-steps.tsx), then the keys, campaigns, SDK freshness and validation per platform. Every button is a
// plain form posting to the dashboard REST (api/dashboard/rest.ts), so the page works without JavaScript (the two
// scripts only add copy buttons and the test purchase's progress); secrets appear once, on
// the GET page a regenerate form redirects to (/dashboard/shown-once); destructive buttons confirm first (confirm.tsx).
import { CopyButton, LocalTime } from '../../view-kit/ui.js';
import { ConfirmForm } from '../../view-kit/confirm.js';
import { DANGERS } from '../dangers.js';
import { findApp } from '../../../db/apps.js';
import { listCampaignsInOrgs } from '../../../db/campaigns.js';
import { findTestReferralCode } from '../../../db/integration.js';
import { safeUrl } from '../../view-kit/html.js';
import type { AppContext } from '../../context.js';
import { setupOf } from './app-handlers.js';
import { CredentialForm, credentialFormId } from './credential-form.js';
import {
  ButtonForm,
  CampaignStatusButton,
  CsrfField,
  dashboardPage,
  Hidden,
  OrgLink,
  stateFor,
  Table,
  type SignedIn,
} from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';
import { moneyFactsOf } from '../wallet/money-facts.js';
import { Steps, type Setup, type StepCampaign, type StepContext } from './setup-steps.js';

const TEST_PURCHASE_SCRIPT = '/dashboard/static/test-purchase.js';

const when = (d: unknown) => <LocalTime at={d as string | Date | null | undefined} empty="never" />;
const age = (seconds: number | null) =>
  seconds === null
    ? ''
    : seconds < 120
      ? `${seconds} s ago`
      : seconds < 7200
        ? `${Math.round(seconds / 60)} min ago`
        : `${Math.round(seconds / 3600)} h ago`;

function KeysSection({ s, setup, back }: { s: SignedIn; setup: Setup; back: string }) {
  const id = setup.app.app_id;
  const rejected = setup.rejected_webhooks_today;
  return (
    <>
      <h2 id="keys">Keys and webhook</h2>
      <p>
        <strong>SDK key</strong> (public, ships in the app): <code id="sdk-key">{setup.sdk_key as string}</code>{' '}
        <CopyButton target="sdk-key" />
      </p>
      <p>
        <strong>Webhook URL</strong> for the subscription provider: <code id="webhook-url-keys">{setup.webhook.url}</code>{' '}
        <CopyButton target="webhook-url-keys" /> ·{' '}
        {setup.webhook.connected ? (
          <span class="done">test event received {when(setup.webhook.connected_at)}</span>
        ) : (
          <span class="open">no test event yet</span>
        )}
      </p>
      <p>
        <strong>Webhook secret</strong>: shown once, when created or regenerated. Regenerating stops the old one at once.
      </p>
      <ConfirmForm s={s} action={`/api/apps/${id}/regenerate-webhook-secret`} returnTo={back} {...DANGERS.webhookSecret} />
      <p>
        <strong>Rejected webhook calls today</strong>: <span id="rejected-count">{rejected.total}</span>
        {rejected.total > 0 ? (
          <>
            {' '}
            (
            {Object.entries(rejected.by_reason)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}
            ; last {when(rejected.last_at)})
          </>
        ) : null}
      </p>
      <p>
        <strong>Purchase API key</strong> (your server, <code>POST {setup.purchase_api.endpoint}</code>): shown once; regenerating stops the
        old one at once.
      </p>
      <ConfirmForm s={s} action={`/api/apps/${id}/regenerate-purchase-api-key`} returnTo={back} {...DANGERS.purchaseKey} />
    </>
  );
}

function SdkSection({ setup }: { setup: Setup }) {
  return (
    <>
      <h2>SDK initialization per platform</h2>
      <Table id="sdk-init" columns={['Platform', 'Last init', 'SDK']}>
        {Object.entries(setup.sdk_init).map(([platform, p]) => (
          <tr>
            <td>{platform}</td>
            <td>
              {p.initialized_at ? (
                <>
                  {when(p.initialized_at)} ({age(p.age_seconds)}){' '}
                  {p.fresh ? <span class="done">fresh</span> : <span class="open">stale: no init in 24 h</span>}
                </>
              ) : (
                <span class="muted">never</span>
              )}
            </td>
            <td>
              {[p.sdk_name, p.sdk_version].filter(Boolean).join(' ')}
              {p.app_version ? ` (app ${p.app_version})` : null}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function ValidationSection({ s, setup, back }: { s: SignedIn; setup: Setup; back: string }) {
  const id = setup.app.app_id;
  // The checklist's own verdict: a purchase webhook (provider or direct) also proves the provider path.
  const serverPathSeen = setup.checklist.find((i) => i.step === 'subprovider_webhook_wired')?.done === true;
  return (
    <>
      <h2 id="validation">Purchase validation per platform</h2>
      {Object.entries(setup.validation).map(([platform, v]) => {
        const c = v.store_credential;
        const state =
          v.validation_path === 'store-direct' ? (
            v.ready ? (
              <span class="done">credentials green</span>
            ) : (
              <span class="open">credentials not green</span>
            )
          ) : v.ready ? (
            <span class="done">provider webhook connected</span>
          ) : serverPathSeen ? (
            <span class="done">purchases received</span>
          ) : (
            <span class="muted">waiting for the provider's test event</span>
          );
        return (
          <fieldset>
            <legend>
              {platform}: {v.validation_path === 'store-direct' ? 'store-direct' : 'subscription provider'}, {state}
            </legend>
            <p>
              Store credential:{' '}
              {c.present ? (
                <>
                  uploaded {when(c.uploaded_at)}, check <strong>{String(c.check_status)}</strong>
                  {c.passed ? (
                    <>
                      {' '}
                      <span class="done">green</span>
                    </>
                  ) : null}
                  {c.last_error ? ` (${String(c.last_error)})` : null}
                </>
              ) : (
                'none uploaded'
              )}
            </p>
            <CredentialForm
              action={`/api/apps/${id}/credentials`}
              platform={platform}
              state={stateFor(s, credentialFormId(platform))}
              hidden={
                <>
                  <CsrfField s={s} />
                  <Hidden fields={{ return_to: back }} />
                </>
              }
            />
            {c.present ? (
              <ButtonForm
                s={s}
                action={`/api/apps/${id}/validate-store-credentials`}
                label="Run the green-check"
                returnTo={back}
                fields={{ platform }}
              />
            ) : null}
            {c.passed && v.validation_path !== 'store-direct' ? (
              <ButtonForm
                s={s}
                action={`/api/apps/${id}/activate-store-direct`}
                label={`Switch ${platform} to store-direct`}
                returnTo={back}
                fields={{ platform }}
              />
            ) : null}
          </fieldset>
        );
      })}
    </>
  );
}

/** The app's campaigns with pause / activate, once the campaign step is done (before, the step shows them). */
function CampaignsSection({ s, campaigns, back }: { s: SignedIn; campaigns: StepCampaign[]; back: string }) {
  return (
    <>
      <h2>Campaigns</h2>
      <Table columns={['Name', 'Status', 'Commission', '']}>
        {campaigns.map((c) => (
          <tr>
            <td>{String(c.name)}</td>
            <td>{String(c.status)}</td>
            <td>{Number(c.commission_percentage)} %</td>
            <td>
              <CampaignStatusButton s={s} campaign={c} returnTo={back} />
            </td>
          </tr>
        ))}
      </Table>
      <p class="muted">
        New campaigns and their terms:{' '}
        <OrgLink s={s} to="/dashboard/campaigns">
          Campaigns
        </OrgLink>
        .
      </p>
    </>
  );
}

export async function setupPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const app = visibleOrNotFoundPage(ctx, s, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!app) return;
  const [setup, campaigns, testCode, money] = await Promise.all([
    setupOf(ctx, app),
    listCampaignsInOrgs(ctx.deps.db, [app.org_id], { appId: app.id }),
    findTestReferralCode(ctx.deps.db, app.id),
    moneyFactsOf(ctx, app.org_id),
  ]);
  const back = ctx.originalUrl;
  const active = campaigns.find((c) => c.status === 'active' && c.campaign_type === 'public');
  const steps: StepContext = {
    s,
    setup,
    campaigns,
    money,
    back,
    baseUrl: ctx.deps.config.BASE_URL,
    hasCreator: testCode !== undefined,
    joinUrl: active && !testCode ? `${ctx.deps.config.DASHBOARD_URL}/join/${active.id}` : undefined,
  };
  const campaignStepDone = setup.checklist.find((i) => i.step === 'campaign_active')?.done === true;
  dashboardPage(
    ctx,
    s,
    200,
    `Set up ${String(app.name)}`,
    <>
      <p class="muted">
        App <code>{app.id}</code>, slug <code>{String(app.slug)}</code>.{' '}
        <OrgLink s={s} to={`/dashboard/apps/${encodeURIComponent(app.id)}/events`}>
          Live events
        </OrgLink>{' '}
        · <a href="">Refresh</a>
      </p>
      <Steps c={steps} />
      <p class="muted">
        Credited purchases through the app's own purchase path: {setup.attributed_conversion_count} (production:{' '}
        {setup.production_attributed_conversion_count}). <a href={safeUrl(`/api/apps/${app.id}/setup`)}>This page as JSON</a>
      </p>
      <KeysSection s={s} setup={setup} back={back} />
      {campaignStepDone ? <CampaignsSection s={s} campaigns={campaigns} back={back} /> : null}
      <SdkSection setup={setup} />
      <ValidationSection s={s} setup={setup} back={back} />
    </>,
    { scripts: [TEST_PURCHASE_SCRIPT] },
  );
}
