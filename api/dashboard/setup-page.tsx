// GET /dashboard/apps/{app_id}: the setup page. Everything comes from GET /api/apps/{app_id}/setup's computation
// (setupOf: the agent API's checklist and validation status), and every button is a plain form posting to the
// dashboard REST (api/dashboard/rest.ts), so the page works without JavaScript; secrets appear once, on the page
// GET page a regenerate form redirects to (/dashboard/shown-once); destructive buttons confirm first (confirm.tsx).
import { LocalTime } from '../../lib/ui.js';
import { ScrollTable } from '../../lib/ui.js';
import { ConfirmForm } from './confirm.js';
import { DANGERS } from './dangers.js';
import { findApp } from '../../db/apps.js';
import { listCampaignsInOrgs } from '../../db/campaigns.js';
import { safeUrl } from '../../lib/html.js';
import type { AppContext } from '../context.js';
import { setupOf } from './app-handlers.js';
import { CredentialForm } from './credential-form.js';
import { ButtonForm, CampaignStatusButton, CsrfField, dashboardPage, Hidden, OrgLink, PostForm, signedIn, Table, type SignedIn, visibleOrNotFoundPage } from './layout.js';

type Setup = Awaited<ReturnType<typeof setupOf>>;
const when = (d: unknown) => <LocalTime at={d as string | Date | null | undefined} empty="never" />;
const age = (seconds: number | null) => (seconds === null ? '' : seconds < 120 ? `${seconds} s ago` : seconds < 7200 ? `${Math.round(seconds / 60)} min ago` : `${Math.round(seconds / 3600)} h ago`);

function ChecklistSection({ setup }: { setup: Setup }) {
  return <>
    <h2 id="checklist">Integration checklist {setup.live ? <span class="done">live</span> : <span class="open">not live yet</span>}</h2>
    <ScrollTable label="Integration checklist"><table aria-describedby="checklist"><thead><tr><th>Step</th><th>State</th><th>Evidence, next step and likely cause</th></tr></thead><tbody>
      {setup.checklist.map((item) => {
        const open = 'next_action' in item ? item : undefined;
        return (
          <tr data-step={item.step}><td><code>{item.step}</code></td><td class={item.done ? 'done' : 'open'}>{item.done ? 'done' : 'open'}</td>
            <td>{item.evidence ?? ''}{open ? <>
              {open.next_action ? <p><strong>Next:</strong> {open.next_action}</p> : null}
              {(open.troubleshooting ?? []).map((c) => <p class="muted"><strong>Likely cause:</strong> {c}</p>)}
            </> : null}</td></tr>
        );
      })}
    </tbody></table></ScrollTable><p class="muted">Attributed conversions through the app's purchase path: {setup.attributed_conversion_count} (production: {setup.production_attributed_conversion_count}). <a href="">Refresh</a></p>
  </>;
}

function KeysSection({ s, setup, back }: { s: SignedIn; setup: Setup; back: string }) {
  const id = setup.app.app_id;
  const rejected = setup.rejected_webhooks_today;
  return <>
    <h2>Keys and webhook</h2>
    <p><strong>SDK key</strong> (public, ships in the app): <code id="sdk-key">{setup.sdk_key as string}</code></p>
    <p><strong>Webhook URL</strong> for the subscription provider: <code>{setup.webhook.url}</code> · {setup.webhook.connected ? <span class="done">connected {when(setup.webhook.connected_at)}</span> : <><span class="open">not connected yet</span> (send the provider's TEST event)</>}</p>
    <p><strong>Webhook secret</strong>: shown once, when created or regenerated. Regenerating stops the old one at once.</p>
    <ConfirmForm s={s} action={`/api/apps/${id}/regenerate-webhook-secret`} returnTo={back} {...DANGERS.webhookSecret} />
    <p><strong>Rejected webhook calls today</strong>: <span id="rejected-count">{rejected.total}</span>{rejected.total > 0 ? <> ({Object.entries(rejected.by_reason).map(([k, v]) => `${k}: ${v}`).join(', ')}; last {when(rejected.last_at)})</> : null}</p>
    <p><strong>Purchase API key</strong> (your server, <code>POST {setup.purchase_api.endpoint}</code>): shown once; regenerating stops the old one at once.</p>
    <ConfirmForm s={s} action={`/api/apps/${id}/regenerate-purchase-api-key`} returnTo={back} {...DANGERS.purchaseKey} />
  </>;
}

function SdkSection({ setup }: { setup: Setup }) {
  return <>
    <h2>SDK initialization per platform</h2>
    <Table columns={['Platform', 'Last init', 'SDK']}>
      {Object.entries(setup.sdk_init).map(([platform, p]) => (
        <tr><td>{platform}</td>
          <td>{p.initialized_at ? <>{when(p.initialized_at)} ({age(p.age_seconds)}) {p.fresh ? <span class="done">fresh</span> : <span class="open">stale: no init in 24 h</span>}</> : <span class="muted">never</span>}</td>
          <td>{[p.sdk_name, p.sdk_version].filter(Boolean).join(' ')}{p.app_version ? ` (app ${p.app_version})` : null}</td></tr>
      ))}
    </Table>
  </>;
}

function ValidationSection({ s, setup, back }: { s: SignedIn; setup: Setup; back: string }) {
  const id = setup.app.app_id;
  return <>
    <h2>Purchase validation per platform</h2>
    {Object.entries(setup.validation).map(([platform, v]) => {
      const c = v.store_credential;
      const state = v.validation_path === 'store-direct'
        ? (v.ready ? <span class="done">credentials green</span> : <span class="open">credentials not green</span>)
        : (v.ready ? <span class="done">provider webhook connected</span> : <span class="muted">provider webhook not connected by a TEST event</span>);
      return (
        <fieldset><legend>{platform}: {v.validation_path === 'store-direct' ? 'store-direct' : 'subscription provider'}, {state}</legend>
          <p>Store credential: {c.present ? <>uploaded {when(c.uploaded_at)}, check <strong>{String(c.check_status)}</strong>{c.passed ? <> <span class="done">green</span></> : null}{c.last_error ? ` (${String(c.last_error)})` : null}</> : 'none uploaded'}</p>
          <CredentialForm action={`/api/apps/${id}/credentials`} platform={platform} hidden={<><CsrfField s={s} /><Hidden fields={{ return_to: back }} /></>} />
          {c.present ? <ButtonForm s={s} action={`/api/apps/${id}/validate-store-credentials`} label="Run the green-check" returnTo={back} fields={{ platform }} /> : null}
          {c.passed && v.validation_path !== 'store-direct' ? <ButtonForm s={s} action={`/api/apps/${id}/activate-store-direct`} label={`Switch ${platform} to store-direct`} returnTo={back} fields={{ platform }} /> : null}
        </fieldset>
      );
    })}
  </>;
}

function CampaignsSection({ s, appId, campaigns, back }: { s: SignedIn; appId: string; campaigns: { id: string; name: unknown; status: unknown; commission_percentage: unknown }[]; back: string }) {
  return <>
    <h2>Campaigns</h2>{campaigns.length ? (
      <Table columns={['Name', 'Status', 'Commission', '']}>
        {campaigns.map((c) => <tr><td>{String(c.name)}</td><td>{String(c.status)}</td><td>{Number(c.commission_percentage)} %</td><td><CampaignStatusButton s={s} campaign={c} returnTo={back} /></td></tr>)}
      </Table>
    ) : <p>No campaign yet.</p>}
    <p class="muted">Activating needs the wallet's safe balance at or above the minimum escrow: <OrgLink s={s} to="/dashboard/wallet">top up the wallet</OrgLink>.</p>
    <PostForm s={s} action={`/api/apps/${appId}/campaigns`} returnTo={back}>
      <label for="cmp-name">New campaign name</label><input id="cmp-name" name="name" required maxlength={200} />
      <label for="cmp-pct">Commission (%)</label><input id="cmp-pct" name="commission_percentage" inputmode="decimal" required />
      <button type="submit">Create campaign (draft)</button>
    </PostForm>
  </>;
}

export async function setupPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const app = visibleOrNotFoundPage(ctx, s, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!app) return;
  const [setup, campaigns] = await Promise.all([setupOf(ctx, app), listCampaignsInOrgs(ctx.deps.db, [app.org_id], { appId: app.id })]);
  const back = ctx.originalUrl;
  dashboardPage(ctx, s, 200, `Set up ${String(app.name)}`, <>
    <p class="muted">App <code>{app.id}</code>, slug <code>{String(app.slug)}</code>. <a href={safeUrl(`/api/apps/${app.id}/setup`)}>This page as JSON</a> · <OrgLink s={s} to={`/dashboard/apps/${encodeURIComponent(app.id)}/events`}>Live events</OrgLink></p>
    <ChecklistSection setup={setup} /><KeysSection s={s} setup={setup} back={back} /><CampaignsSection s={s} appId={app.id} campaigns={campaigns} back={back} /><SdkSection setup={setup} /><ValidationSection s={s} setup={setup} back={back} />
  </>);
}
