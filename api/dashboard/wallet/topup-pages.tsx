// The pages behind the agent's signed top-up link (POST /api/agent/wallet/topup-link): the human picks an amount
// and pays through the configured provider. GET shows the form; POST spends the link and starts the payment (Stripe:
// a redirect to Checkout; test mode: a confirmation page); the wallet is credited only when the payment is
// confirmed (test mode: the confirmation form; Stripe: its signed webhook, never the redirect back).
import type { PaymentProvider, RechargeProvider } from '../../../clients/payments/provider.js';
import { confirmTopUp, startTopUp } from '../../../actions/top-up.js';
import { findPayment } from '../../../db/payments.js';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { tokenMatchesHash } from '../../../lib/credentials.js';
import { AppError, NotFoundError } from '../../../errors/http-errors.js';
import { formatUsd, toMicros } from '../../../lib/money.js';
import { Field } from '../../view-kit/ui.js';
import { usdAmountProblem } from '../../../lib/topup-bounds.js';
import type { PaymentRow } from '../../../schema/types.js';
import type { AppContext } from '../../context.js';
import { checkLink, refuse } from '../links/link-check.js';
import { sendPage } from '../../send-page.js';
import { paymentProviderOf } from '../../../clients/payments/select.js';
import { autoRechargeSection, changeAutoRecharge, DISABLE, ENABLE, type RechargeForm } from './auto-recharge-page.js';
import { formActionOf } from './provider-of.js';
import { checkAutoRecharge } from '../../recharge-check.js';

const PURPOSE = 'wallet-topup';

interface FormPage {
  org: string;
  provider: PaymentProvider & RechargeProvider;
  amount: string;
  error?: string;
  recharge?: RechargeForm;
}

async function formPage(ctx: AppContext, status: number, opts: FormPage): Promise<void> {
  const { TOPUP_MIN_USD: min, TOPUP_MAX_USD: max } = ctx.deps.config;
  const [wallet, recharge] = await Promise.all([
    walletLine(ctx, opts.org),
    autoRechargeSection(ctx, opts.org, opts.provider, opts.recharge),
  ]);
  sendPage(ctx, status, {
    title: 'Top up your wallet',
    lang: 'en',
    formAction: formActionOf(ctx.deps.config, opts.provider),
    body: (
      <>
        <h1>Top up your wallet</h1>
        <p class="muted">
          Organization {opts.org}. {wallet}
        </p>
        <p>
          <strong>{opts.provider.label}</strong>
        </p>
        {opts.error ? (
          <p class="flash bad" role="alert">
            Not started: please correct the amount.
          </p>
        ) : null}
        <form method="post" action={ctx.originalUrl}>
          <Field
            id="amount_usd"
            name="amount_usd"
            label={`Amount (USD, ${min} to ${max})`}
            inputmode="decimal"
            required
            value={opts.amount}
            state={opts.error ? { errors: { amount_usd: `${opts.error}.` } } : undefined}
          />
          <button type="submit">Continue to payment</button>
        </form>
        <p class="muted">This link works once: starting a payment uses it.</p>
        {recharge}
      </>
    ),
  });
}

async function walletLine(ctx: AppContext, orgId: string): Promise<string> {
  const w = await getWalletTotals(ctx.deps.db, orgId);
  return (
    `Balance ${formatUsd(w.balanceMicros)}, ` +
    `reserved ${formatUsd(w.reservedMicros)}, safe available ${formatUsd(w.safeAvailableMicros)}.`
  );
}

export async function topupPage(ctx: AppContext): Promise<void> {
  const checked = await checkLink(ctx, PURPOSE);
  if (!checked.ok) return refuse(ctx, checked.status, checked.message);
  const provider = paymentProviderOf(ctx.deps.config);
  if (!provider) return refuse(ctx, 503, 'Top-ups are not configured on this server (set STRIPE_SECRET_KEY, or PAYMENT_PROVIDER).');
  const { org, extra } = checked.claims;
  await formPage(ctx, 200, { org, provider, amount: extra?.amount_usd ?? String(ctx.deps.config.TOPUP_MIN_USD) });
}

export async function startTopup(ctx: AppContext): Promise<void> {
  const checked = await checkLink(ctx, PURPOSE);
  if (!checked.ok) return refuse(ctx, checked.status, checked.message);
  const provider = paymentProviderOf(ctx.deps.config);
  if (!provider) return refuse(ctx, 503, 'Top-ups are not configured on this server (set STRIPE_SECRET_KEY, or PAYMENT_PROVIDER).');
  const { claims } = checked;
  const body = ctx.state.body as Record<string, unknown> | undefined;
  if (body?.action === ENABLE || body?.action === DISABLE) {
    const change = await changeAutoRecharge(ctx, claims.org, provider, body.action);
    if (change.kind === 'redirect') {
      ctx.status = 303;
      return ctx.redirect(change.url);
    }
    return formPage(ctx, change.status, { org: claims.org, provider, amount: String(ctx.deps.config.TOPUP_MIN_USD), recharge: change });
  }
  const raw = body?.amount_usd;
  const problem = usdAmountProblem(raw, ctx.deps.config);
  if (problem) return formPage(ctx, 422, { org: claims.org, provider, amount: typeof raw === 'string' ? raw : '', error: problem });
  const amountMicros = toMicros((raw as string).trim());
  const start = await startTopUp(
    { db: ctx.deps.db },
    {
      orgId: claims.org,
      provider,
      amountMicros,
      link: { nonce: claims.nonce, purpose: claims.purpose, expiresAt: new Date(claims.exp * 1000) },
      returnUrl: (paymentId) => `${ctx.deps.config.DASHBOARD_URL}/topups/${paymentId}`,
    },
  );
  if (start.kind === 'link_spent') return refuse(ctx, 410, 'This link has already been used. Links work once: ask for a new one.');
  if (start.kind === 'provider_failed')
    return refuse(
      ctx,
      503,
      'The payment could not be started at the payment provider. Nothing was charged; ask the agent for a new link and try again.',
    );
  if (start.kind === 'redirect') {
    ctx.status = 303;
    ctx.redirect(start.url);
    return;
  }
  sendPage(ctx, 200, {
    title: 'Confirm the top-up (test mode)',
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>Confirm the top-up</h1>
        <p>
          <strong>{provider.label}</strong>
        </p>
        <p>Amount: {formatUsd(amountMicros)}</p>
        <form method="post" action={`/dashboard/topups/${start.paymentId}/confirm`}>
          <input type="hidden" name="token" value={start.confirmToken} />
          <button type="submit">Confirm test payment</button>
        </form>
      </>
    ),
  });
}

function tokenMatches(payment: PaymentRow, token: unknown): boolean {
  return typeof token === 'string' && payment.confirm_token_hash !== null && tokenMatchesHash(token, payment.confirm_token_hash);
}

/**
 * Test mode: the human's confirmation credits the wallet (once; a second click shows the same result), then redirects to the payment's
 * page.
 */
export async function confirmTopup(ctx: AppContext): Promise<void> {
  const payment = await findPayment(ctx.deps.db, ctx.params.payment_id as string);
  if (!payment || payment.provider !== 'test') throw new NotFoundError('Payment not found');
  if (paymentProviderOf(ctx.deps.config)?.name !== 'test') throw new AppError(403, 'Test-mode payments are not accepted on this server.');
  if (!tokenMatches(payment, (ctx.state.body as Record<string, unknown> | undefined)?.token))
    throw new AppError(403, 'This confirmation does not belong to this payment.');
  const credit = await confirmTopUp(
    { db: ctx.deps.db, checkAutoRecharge: (orgId) => checkAutoRecharge(ctx, orgId) },
    { paymentId: payment.id, amountMicros: payment.amount_micros, orgId: payment.org_id },
  );
  // Post/Redirect/Get: a reload of the answer must not post the confirmation again.
  ctx.status = 303;
  ctx.redirect(`/dashboard/topups/${encodeURIComponent(payment.id)}?confirmed=${credit.credited ? credit.funded : 'before'}`);
}

/** What the confirmation did, as its redirect states it (`?confirmed=N` waiting commissions funded, or `before`). */
function confirmedNote(confirmed: unknown): string | undefined {
  if (confirmed === 'before') return 'This payment was credited before.';
  if (typeof confirmed === 'string' && /^\d{1,9}$/.test(confirmed)) return `${Number(confirmed)} waiting commission(s) funded.`;
  return undefined;
}

/** Where Stripe sends the human back: the payment's state, which only the webhook changes. */
export async function topupStatusPage(ctx: AppContext): Promise<void> {
  const payment = await findPayment(ctx.deps.db, ctx.params.payment_id as string);
  if (!payment) throw new NotFoundError('Payment not found');
  const note =
    payment.status === 'pending'
      ? ctx.query.cancelled
        ? 'The payment was cancelled: nothing was charged.'
        : 'Waiting for the payment provider to confirm the payment. This page does not change the wallet; refresh in a moment.'
      : (payment.status === 'succeeded' && confirmedNote(ctx.query.confirmed)) || '';
  showPayment(ctx, payment, note);
}

function showPayment(ctx: AppContext, payment: PaymentRow, note: string): void {
  const state =
    payment.status === 'succeeded'
      ? `Credited ${formatUsd(payment.credited_micros ?? 0)} to the wallet.`
      : payment.status === 'failed'
        ? `The payment failed${payment.failure ? `: ${payment.failure}` : ''}.`
        : `Pending: ${formatUsd(payment.amount_micros)}.`;
  sendPage(ctx, 200, {
    title: 'Wallet top-up',
    lang: 'en',
    body: (
      <>
        <h1>Wallet top-up</h1>
        {'\n'}
        <p data-status={payment.status}>{state}</p>
        {note ? <p class="muted">{note}</p> : null}
      </>
    ),
  });
}
