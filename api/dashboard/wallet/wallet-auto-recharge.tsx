// The wallet page's auto-recharge section: its state from the same read and view as GET /api/agent/wallet
// (findAutoRechargeSettings + autoRechargeView: threshold, amount, provider, card, last result, why the service
// turned it off) and, for owners and admins, the top-up page's own forms posting here (session + CSRF) to the same
// changeAutoRecharge: test mode saves a simulated card at once; Stripe answers a redirect to Checkout in setup mode
// and the signed webhook saves the card. Inline rather than through a signed link: the human is already signed in
// on the page that shows the state, and a change needs no single-use capability (nothing is charged by it).
import type { VNode } from 'preact';
import { findAutoRechargeSettings } from '../../../db/auto-recharge.js';
import { paymentProviderOf } from '../../../clients/payments/select.js';
import { formatUsd } from '../../../lib/money.js';
import { autoRechargeView } from '../../agent/wallet.js';
import type { AppContext } from '../../context.js';
import {
  AutoRechargeForms,
  changeAutoRecharge,
  Notice,
  DISABLE,
  ENABLE,
  type RechargeChange,
  type RechargeForm,
} from './auto-recharge-page.js';
import { formActionOf } from './provider-of.js';
import { canManage, CsrfField, orgLink, type SignedIn } from '../../view-kit/layout.js';

export const AUTO_RECHARGE_PATH = '/dashboard/wallet/auto-recharge';

type View = ReturnType<typeof autoRechargeView>;

function lastResult(last: View['last_result']): string {
  if (!last) return 'none yet';
  const what =
    last.status === 'succeeded'
      ? `credited ${formatUsd(last.credited_micros ?? 0)}`
      : last.status === 'failed'
        ? `failed: ${last.failure ?? 'unknown reason'}`
        : `pending ${formatUsd(last.amount_micros)}`;
  return `${what} (${last.created_at.replace('T', ' ').slice(0, 19)})`;
}

function StateTable({ v }: { v: View }) {
  const money = (micros: number | null) => (micros === null ? '—' : formatUsd(micros));
  const rows: [string, string, string][] = [
    ['ar-state', 'State', v.enabled ? 'on' : 'off'],
    ['ar-threshold', 'Recharge when the safe balance falls below', money(v.threshold_micros)],
    ['ar-amount', 'Amount charged', money(v.amount_micros)],
    ['ar-provider', 'Provider', v.provider ?? '—'],
    ['ar-card', 'Card', v.payment_method ?? '—'],
    ['ar-last', 'Last recharge', lastResult(v.last_result)],
    ...(v.disabled_reason
      ? [['ar-disabled-reason', 'Turned off by the service because', v.disabled_reason] as [string, string, string]]
      : []),
  ];
  return (
    <table>
      <tbody>
        {rows.map(([id, label, value]) => (
          <tr>
            <th scope="row">{label}</th>
            <td id={id}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The section (a failed change's values and errors, or a notice, in `form`). */
export async function autoRechargeWalletSection(ctx: AppContext, s: SignedIn, form: RechargeForm = {}): Promise<VNode | null> {
  const settings = await findAutoRechargeSettings(ctx.deps.db, s.orgId!);
  if (!settings) return null;
  const provider = paymentProviderOf(ctx.deps.config);
  return (
    <>
      <h2 id="auto-recharge">Auto-recharge</h2>
      <Notice text={form.notice} />
      <StateTable v={autoRechargeView(settings)} />
      {!canManage(s) ? (
        <p class="muted">Owners and admins change auto-recharge.</p>
      ) : !provider ? (
        <p class="muted">Payments are not configured on this server (set STRIPE_SECRET_KEY, or PAYMENT_PROVIDER).</p>
      ) : (
        <AutoRechargeForms
          ctx={ctx}
          settings={settings}
          provider={provider}
          form={form}
          target={{ action: orgLink(s, AUTO_RECHARGE_PATH), hidden: <CsrfField s={s} /> }}
        />
      )}
    </>
  );
}

/** The page's CSP form-action: Stripe's Checkout is where the enable form's answer may redirect. */
export function walletFormAction(ctx: AppContext): string {
  const provider = paymentProviderOf(ctx.deps.config);
  return provider ? formActionOf(ctx.deps.config, provider) : "'self'";
}

/** POST /dashboard/wallet/auto-recharge: what the wallet page answers (a redirect, or the page with status and notice). */
export async function changeFromWallet(ctx: AppContext, s: SignedIn): Promise<RechargeChange> {
  if (!s.orgId || !canManage(s)) return { kind: 'page', status: 403, notice: 'Only owners and admins change auto-recharge.' };
  const provider = paymentProviderOf(ctx.deps.config);
  if (!provider) return { kind: 'page', status: 503, notice: 'Payments are not configured on this server.' };
  const action = (ctx.state.body as Record<string, unknown> | undefined)?.action;
  if (action !== ENABLE && action !== DISABLE) return { kind: 'page', status: 422, errors: { action: `One of '${ENABLE}', '${DISABLE}'` } };
  return changeAutoRecharge(ctx, s.orgId, provider, action);
}
