// The setup page's checklist for humans: one plain title per step (lib/integration-checklist.ts CHECKLIST_TITLES),
// its state, and for an open step the action in place (the campaign form and buttons, the SDK code with this app's
// key per platform, the webhook URL and the provider's steps, the test purchase, or the join link before any creator
// joined). What an agent would call (REST path, tool) sits behind a toggle. Every state shown comes from the one
// checklist computation (integrationStatusOf via setupOf), so the page cannot say two things about one step.
import type { ComponentChildren } from 'preact';
import { CHECKLIST_TITLES, type ChecklistStep } from '../../../lib/integration-checklist.js';
import { listSdks } from '../../../sdk-registry/registry.js';
import { scaffold } from '../../../sdk-registry/scaffold/scaffold.js';
import type { setupOf } from './app-handlers.js';
import { CopyButton, LocalTime } from '../../view-kit/ui.js';
import { CampaignStatusButton, OrgLink, PostForm, stateFor, type SignedIn } from '../../view-kit/layout.js';
import { formatUsd } from '../../../lib/money.js';
import { TermFields } from '../campaigns/campaign-fields.js';
import { MoneyFactsList, type MoneyFacts } from '../wallet/money-facts.js';

export type Setup = Awaited<ReturnType<typeof setupOf>>;
export interface StepCampaign {
  id: string;
  name: unknown;
  status: unknown;
  commission_percentage: unknown;
}

export interface StepContext {
  s: SignedIn;
  setup: Setup;
  campaigns: StepCampaign[];
  /** The money rules of the campaign step (minimum escrow, fee), from where the wallet page reads them. */
  money: MoneyFacts;
  back: string;
  baseUrl: string;
  /** The join page of the first active public campaign, while no creator has joined any active one. */
  joinUrl: string | undefined;
  /** An active campaign has a creator code: the test purchase can run. */
  hasCreator: boolean;
}

type Item = Setup['checklist'][number];

function CampaignAction({ c }: { c: StepContext }) {
  const appId = c.setup.app.app_id;
  const waiting = c.campaigns.filter((x) => x.status === 'draft' || x.status === 'paused');
  const state = stateFor(c.s, 'step-campaign');
  return (
    <>
      {waiting.map((x) => (
        <p>
          Campaign <strong>{String(x.name)}</strong> ({String(x.status)}, {Number(x.commission_percentage)} % commission):{' '}
          <CampaignStatusButton s={c.s} campaign={x} returnTo={c.back} />
        </p>
      ))}
      <p class="muted">New campaigns start as drafts. Before you activate one:</p>
      <MoneyFactsList s={c.s} facts={c.money} />
      <PostForm s={c.s} action={`/api/apps/${appId}/campaigns`} returnTo={c.back} formId="step-campaign">
        <TermFields prefix="cmp" brief state={state} />
        <label for="cmp-type">Who may join</label>
        <select id="cmp-type" name="campaign_type">
          <option value="public">anyone with the join link</option>
          <option value="private" selected={state?.values?.campaign_type === 'private'}>
            only creators you invite
          </option>
        </select>
        <button type="submit">Create campaign (draft)</button>
      </PostForm>
      <p>
        <OrgLink s={c.s} to="/dashboard/wallet#topup">
          Top up the wallet
        </OrgLink>{' '}
        (the minimum escrow is {formatUsd(c.money.minEscrowMicros)}; the platform fee, {c.money.feePercent}% of each commission, is reserved
        on top of it).
      </p>
    </>
  );
}

/** The install command and the code that sets up and starts the SDK, per SDK, with this app's key. */
function SdkCode({ c }: { c: StepContext }) {
  return (
    <>
      {listSdks().map((sdk, i) => {
        if (!sdk.package) {
          return (
            <details data-sdk={sdk.id}>
              <summary>{sdk.name} (not available)</summary>
              <p>
                {sdk.unavailable?.reason} {sdk.unavailable?.instead}
              </p>
              <ol>
                {sdk.unavailable?.steps.map((step) => (
                  <li>{step.replace(/\{base_url\}/g, c.baseUrl)}</li>
                ))}
              </ol>
            </details>
          );
        }
        const install = sdk.package.install_command.replace(/\{base_url\}/g, c.baseUrl);
        const files = [
          ...scaffold('install', { sdk, sdkKey: String(c.setup.sdk_key), options: {} }, c.baseUrl).files,
          ...scaffold('init', { sdk, sdkKey: String(c.setup.sdk_key), options: {} }, c.baseUrl).files,
        ];
        return (
          <details open={i === 0} data-sdk={sdk.id}>
            <summary>{sdk.name}</summary>
            <p>
              Install: <code id={`install-${sdk.id}`}>{install}</code> <CopyButton target={`install-${sdk.id}`} />
            </p>
            {files.map((f, j) => (
              <>
                <p>
                  <strong>{f.file_name}</strong> <CopyButton target={`code-${sdk.id}-${j}`} />
                </p>
                <pre>
                  <code id={`code-${sdk.id}-${j}`}>{f.code}</code>
                </pre>
              </>
            ))}
          </details>
        );
      })}
    </>
  );
}

/** The webhook URL and the provider's steps, with copy buttons (also shown in the keys section). */
function WebhookSteps({ c }: { c: StepContext }) {
  return (
    <ol>
      <li>
        In your subscription provider's dashboard, open its webhook settings and add a webhook (in RevenueCat: the project's Integrations,
        then Webhooks).
      </li>
      <li>
        Webhook URL: <code id="webhook-url">{c.setup.webhook.url}</code> <CopyButton target="webhook-url" />
      </li>
      <li>
        Authorization header: <code>Bearer</code> followed by this app's webhook secret. It was shown once, when the app was created; lost
        it? regenerate it under <a href="#keys">Keys and webhook</a> below (the old one stops at once).
      </li>
      <li>Save, then use the provider's "send test event" button. This step turns done when it arrives.</li>
    </ol>
  );
}

function TestPurchase({ c }: { c: StepContext }) {
  const id = c.setup.app.app_id;
  const last = c.setup.test_integration;
  return (
    <>
      <p>
        Check the whole pipeline now: a sandbox purchase by a test user with a creator's code goes through the real attribution (no money
        moves). It does not complete this step; a purchase from the app itself does.
      </p>
      <PostForm s={c.s} action={`/api/apps/${id}/test-integration`} returnTo={c.back}>
        <button type="submit" id="test-purchase">
          Send a test purchase
        </button>
      </PostForm>
      <ol id="test-purchase-progress" aria-live="polite" class="progress" hidden></ol>
      {last ? (
        <p id="test-purchase-last">
          Last test purchase: <LocalTime at={last.last_run_at} />,{' '}
          {last.passed ? <span class="done">credited to the creator</span> : <span class="open">not credited</span>}.{' '}
          <OrgLink s={c.s} to={`/dashboard/apps/${encodeURIComponent(id)}/events`}>
            See it on live events
          </OrgLink>
          .
        </p>
      ) : null}
    </>
  );
}

function JoinLink({ url }: { url: string }) {
  return (
    <>
      <p>
        No creator has joined yet. Share this link with a first creator (or open it yourself to join as a test creator); then the test
        purchase can run.
      </p>
      <p>
        <code id="join-link">{url}</code> <CopyButton target="join-link" />
      </p>
    </>
  );
}

const ACTIONS: Partial<Record<ChecklistStep, (c: StepContext) => ComponentChildren>> = {
  campaign_active: (c) => <CampaignAction c={c} />,
  sdk_initialized: (c) => (
    <>
      <p>
        Install the SDK and call initialize at start-up with this app's SDK key <code>{String(c.setup.sdk_key)}</code> (already in the code
        below).
      </p>
      <SdkCode c={c} />
    </>
  ),
  sdk_event_received: () => (
    <p>Run the app once with the SDK set up: it reports its first event (for example a paywall view) and this step turns done.</p>
  ),
  validation_configured: () => (
    <p>
      On the subscription provider's path (the default), this is done when the provider's webhook below sends its test event. To let this
      service check App Store or Google Play purchases itself, upload the store credentials under{' '}
      <a href="#validation">Purchase validation per platform</a>.
    </p>
  ),
  subprovider_webhook_wired: (c) => <WebhookSteps c={c} />,
  purchase_webhook_seen: (c) => (
    <p>
      Buy something in the app with a sandbox or test account. The purchase reaches this service through the provider's webhook; watch it
      arrive on{' '}
      <OrgLink s={c.s} to={`/dashboard/apps/${encodeURIComponent(c.setup.app.app_id)}/events`}>
        live events
      </OrgLink>
      .
    </p>
  ),
  attributed_conversion: (c) => (
    <>
      {c.hasCreator ? (
        <TestPurchase c={c} />
      ) : c.joinUrl ? (
        <JoinLink url={c.joinUrl} />
      ) : (
        <p>
          No creator has joined an active campaign yet: activate a campaign (above) and{' '}
          <OrgLink s={c.s} to="/dashboard/creators">
            invite a creator
          </OrgLink>
          ; then the test purchase can run.
        </p>
      )}
      <p>Then buy in the app as a user who came through a creator's link or entered a creator's code: that purchase completes this step.</p>
    </>
  ),
};

function AgentDetails({ item }: { item: Item }) {
  if (!('next_action' in item) || !item.next_action) return null;
  return (
    <details class="agent">
      <summary>For agents</summary>
      <p>{item.next_action}</p>
      <p>
        Step <code>{item.step}</code>
        {item.next_tool ? (
          <>
            , tool <code>{item.next_tool}</code>
          </>
        ) : null}
        {item.call ? (
          <>
            , call <code>{item.call}</code>
          </>
        ) : null}
      </p>
    </details>
  );
}

export function Steps({ c }: { c: StepContext }) {
  const firstOpen = c.setup.checklist.find((i) => !i.done)?.step;
  return (
    <>
      <h2 id="checklist">
        Set-up steps{' '}
        {c.setup.live ? (
          <span class="done">all done: the app is live</span>
        ) : (
          <span class="open">
            {c.setup.checklist.filter((i) => i.done).length} of {c.setup.checklist.length} done
          </span>
        )}
      </h2>
      <ol class="steps">
        {c.setup.checklist.map((item) => (
          <li data-step={item.step} data-state={item.done ? 'done' : 'open'} aria-current={item.step === firstOpen ? 'step' : undefined}>
            <h3>
              {CHECKLIST_TITLES[item.step]}{' '}
              <span class={item.done ? 'done' : 'open'}>{item.done ? 'Done' : item.step === firstOpen ? 'Next' : 'To do'}</span>
            </h3>
            {item.evidence ? <p class="muted">{item.evidence}</p> : null}
            {item.done ? null : (
              <>
                {ACTIONS[item.step]?.(c)}
                {('troubleshooting' in item ? (item.troubleshooting ?? []) : []).map((cause) => (
                  <p class="muted">
                    <strong>If it does not turn done:</strong> {cause}
                  </p>
                ))}
              </>
            )}
            <AgentDetails item={item} />
          </li>
        ))}
      </ol>
    </>
  );
}
