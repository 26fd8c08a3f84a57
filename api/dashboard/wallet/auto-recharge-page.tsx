// Auto-recharge on the signed top-up link's page: the section that shows its state (settings, saved method, last
// result with its failure, why the service turned it off) and the forms a human uses to enable or disable it. The
// forms post to the link's own URL (its signature is the capability, as for the top-up; changing settings does not
// spend the link). Enabling: test mode saves a simulated card at once; Stripe sends the human to Checkout in setup
// mode and the signed webhook saves the card (api/webhooks/stripe.ts). Threshold and amount have the top-up bounds.
// Agents never change it: a request carrying an agent credential is refused here, and no agent route or tool
// writes these settings. The dashboard's wallet page (api/dashboard/wallet/wallet-auto-recharge.tsx) shows the same forms,
// posting to its own URL with the session's CSRF token, and runs the same changeAutoRecharge. The writes are
// actions/auto-recharge.ts setAutoRecharge.
import type { ComponentChildren, VNode } from 'preact';
import type { RechargeProvider } from '../../../clients/payments/provider.js';
import { setAutoRecharge } from '../../../actions/auto-recharge.js';
import { isTestCard, TEST_CARDS, type TestCard } from '../../../clients/payments/test-mode.js';
import { type AutoRechargeSettings, findAutoRechargeSettings, findAutoRechargeSetup } from '../../../db/auto-recharge.js';
import { ForbiddenError, NotFoundError } from '../../../errors/http-errors.js';
import { formatUsd, toMicros } from '../../../lib/money.js';
import { formatDate } from '../../../lib/dates.js';
import { usdAmountProblem } from '../../../lib/topup-bounds.js';
import type { AppContext } from '../../context.js';
import { sendPage } from '../../send-page.js';
import { checkAutoRecharge } from '../../recharge-check.js';

export const ENABLE = 'auto_recharge_enable';
export const DISABLE = 'auto_recharge_disable';

export interface RechargeForm {
  errors?: Record<string, string>;
  values?: Record<string, string>;
  notice?: string;
}

export type RechargeChange = { kind: 'redirect'; url: string } | ({ kind: 'page'; status: number } & RechargeForm);

/** Runs the enable or disable form; answers what the page shows next. */
export async function changeAutoRecharge(
  ctx: AppContext,
  orgId: string,
  provider: RechargeProvider,
  action: string,
): Promise<RechargeChange> {
  if (ctx.state.principal?.kind === 'agent')
    throw new ForbiddenError('Agents can read auto-recharge (GET /api/agent/wallet) but never change it: a human does, on this page.');
  const { db, config } = ctx.deps;
  const deps = { db, checkAutoRecharge: (org: string) => checkAutoRecharge(ctx, org) };
  const returnUrl = (setupId: string) => `${config.DASHBOARD_URL}/auto-recharge-setups/${setupId}`;
  if (action === DISABLE) {
    await setAutoRecharge(deps, { orgId, provider, set: { on: false }, returnUrl });
    return { kind: 'page', status: 200, notice: 'Auto-recharge is off.' };
  }
  const body = (ctx.state.body ?? {}) as Record<string, unknown>;
  const values = Object.fromEntries(
    ['auto_recharge_threshold_usd', 'auto_recharge_amount_usd', 'test_card'].map((k) => [k, typeof body[k] === 'string' ? body[k] : '']),
  );
  const errors: Record<string, string> = {};
  for (const field of ['auto_recharge_threshold_usd', 'auto_recharge_amount_usd']) {
    const problem = usdAmountProblem(body[field], config);
    if (problem) errors[field] = problem;
  }
  if (provider.name === 'test' && !isTestCard(body.test_card))
    errors.test_card = `Pick one of the simulated cards: ${Object.keys(TEST_CARDS).join(', ')}`;
  if (Object.keys(errors).length > 0) return { kind: 'page', status: 422, errors, values };
  const set = {
    on: true as const,
    thresholdMicros: toMicros(values.auto_recharge_threshold_usd!.trim()),
    amountMicros: toMicros(values.auto_recharge_amount_usd!.trim()),
    testCard: body.test_card as TestCard,
  };
  const outcome = await setAutoRecharge(deps, { orgId, provider, set, returnUrl });
  if (outcome.kind === 'redirect') return { kind: 'redirect', url: outcome.url };
  if (outcome.kind === 'on') return { kind: 'page', status: 200, notice: 'Auto-recharge is on (test mode).' };
  return {
    kind: 'page',
    status: 503,
    notice: 'The card setup could not be started at the payment provider. Nothing changed; try again.',
  };
}

function Describe({ settings }: { settings: AutoRechargeSettings }) {
  const lines: string[] = [];
  if (settings.enabled) {
    lines.push(
      `On: when the safe balance falls ` +
        `below ${formatUsd(settings.thresholdMicros ?? 0)}, ${formatUsd(settings.amountMicros ?? 0)} ` +
        `is charged to ${settings.paymentMethod ?? 'the saved method'}.`,
    );
  } else {
    lines.push('Off.');
  }
  if (settings.disabledReason) lines.push(`The service turned it off: ${settings.disabledReason}`);
  const last = settings.last;
  if (last) {
    const what =
      last.status === 'succeeded'
        ? `credited ${formatUsd(last.credited_micros ?? 0)}`
        : last.status === 'failed'
          ? `failed: ${last.failure ?? 'unknown reason'}`
          : `pending ${formatUsd(last.amount_micros)}`;
    lines.push(`Last recharge (${formatDate(last.created_at)}): ${what}.`);
  }
  return (
    <>
      {lines.map((l) => (
        <p data-auto-recharge>{l}</p>
      ))}
    </>
  );
}

export const Notice = ({ text }: { text?: string }) =>
  text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;

/** The section of the top-up page; `form` carries a failed submission's values and errors (422 names each field). */
export async function autoRechargeSection(
  ctx: AppContext,
  orgId: string,
  provider: RechargeProvider,
  form: RechargeForm = {},
): Promise<VNode | null> {
  const settings = await findAutoRechargeSettings(ctx.deps.db, orgId);
  if (!settings) return null;
  return (
    <>
      <h2>Auto-recharge</h2>
      <Notice text={form.notice} />
      <Describe settings={settings} />
      <AutoRechargeForms ctx={ctx} settings={settings} provider={provider} form={form} target={{ action: ctx.originalUrl }} />
    </>
  );
}

/** Where the forms post: the page's own URL, with extra hidden fields (the dashboard's CSRF token). */
export interface FormTarget {
  action: string;
  hidden?: ComponentChildren;
}

interface FormsProps {
  ctx: AppContext;
  settings: AutoRechargeSettings;
  provider: RechargeProvider;
  form: RechargeForm;
  target: FormTarget;
}

/** The field errors, the enable/save form and the disable form (when on). */
export function AutoRechargeForms({ ctx, settings, provider, form, target }: FormsProps) {
  const { TOPUP_MIN_USD: min, TOPUP_MAX_USD: max } = ctx.deps.config;
  const value = (field: string, fallback: string) => form.values?.[field] ?? fallback;
  const threshold = settings.thresholdMicros ? String(settings.thresholdMicros / 1e6) : String(min * 5);
  const amount = settings.amountMicros ? String(settings.amountMicros / 1e6) : String(min * 10);
  return (
    <>
      {Object.entries(form.errors ?? {}).map(([field, msg]) => (
        <p class="error" role="alert">
          {field}: {msg}
        </p>
      ))}
      <form method="post" action={target.action}>
        {target.hidden}
        <input type="hidden" name="action" value={ENABLE} />
        <label for="auto_recharge_threshold_usd">
          When the safe balance falls below (USD, {min} to {max})
        </label>
        <input
          id="auto_recharge_threshold_usd"
          name="auto_recharge_threshold_usd"
          inputmode="decimal"
          required
          value={value('auto_recharge_threshold_usd', threshold)}
        />
        <label for="auto_recharge_amount_usd">
          charge this amount (USD, {min} to {max})
        </label>
        <input
          id="auto_recharge_amount_usd"
          name="auto_recharge_amount_usd"
          inputmode="decimal"
          required
          value={value('auto_recharge_amount_usd', amount)}
        />
        {provider.name === 'test' ? (
          <>
            <p>
              <strong>Test mode: no real card is charged. Pick a simulated card.</strong>
            </p>
            {Object.entries(TEST_CARDS).map(([id, label]) => (
              <label class="check">
                <input type="radio" name="test_card" value={id} checked={(form.values?.test_card ?? 'test_card_ok') === id} />{' '}
                <span>{label}</span>
              </label>
            ))}
          </>
        ) : (
          <p class="muted">You will save a card with Stripe (Checkout); each recharge charges it without asking again.</p>
        )}
        <button type="submit">{settings.enabled ? 'Save auto-recharge' : 'Turn auto-recharge on'}</button>
      </form>
      {settings.enabled ? (
        <form method="post" action={target.action}>
          {target.hidden}
          <input type="hidden" name="action" value={DISABLE} />
          <button type="submit" class="secondary">
            Turn auto-recharge off
          </button>
        </form>
      ) : null}
    </>
  );
}

/** Where Stripe sends the human back after the card setup: its state, which only the signed webhook changes. */
export async function setupStatusPage(ctx: AppContext): Promise<void> {
  const setup = await findAutoRechargeSetup(ctx.deps.db, { id: ctx.params.setup_id as string });
  if (!setup) throw new NotFoundError('Setup not found');
  const state =
    setup.status === 'completed'
      ? 'Your card is saved: auto-recharge is on.'
      : setup.status === 'failed'
        ? `The card setup failed${setup.failure ? `: ${setup.failure}` : ''}.`
        : ctx.query.cancelled
          ? 'The card setup was cancelled: auto-recharge did not change.'
          : 'Waiting for the payment provider to confirm the saved card; refresh in a moment.';
  sendPage(ctx, 200, {
    title: 'Auto-recharge',
    lang: 'en',
    body: (
      <>
        <h1>Auto-recharge</h1>
        {'\n'}
        <p data-status={setup.status}>{state}</p>
      </>
    ),
  });
}
