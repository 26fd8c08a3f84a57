// GET /dashboard/wallet: balance, reserved and safe available (walletView, the shape every surface uses), whether
// campaigns can be activated, the latest ledger entries, and the top-up form. Topping up goes through the existing
// signed-link flow (topup-pages.tsx): POST /dashboard/wallet/topup (session + CSRF, owners and admins)
// signs a wallet-topup link for the organization and redirects the human to it, so there is one payment path.
// Auto-recharge (wallet-auto-recharge.tsx: inline forms, POST /dashboard/wallet/auto-recharge) and payouts
// (wallet-payouts.tsx, its own routes) are sections of WALLET_SECTIONS.
import type { VNode } from 'preact';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { listLedgerEntries, type LedgerLine } from '../../../db/wallet-history.js';
import { listHeldCommissions, type HeldCommission } from '../../../db/commission-holding.js';
import { formatUsd, shownDeltaMicros, toCentsMicros, walletView } from '../../../lib/money.js';
import { usdAmountProblem } from '../../../lib/topup-bounds.js';
import { Badge, Field, LocalTime, type FormState } from '../../view-kit/ui.js';
import { createSignedLink } from '../../../lib/signed-links.js';
import type { AppContext } from '../../context.js';
import type { RechargeForm } from './auto-recharge-page.js';
import { canManage, dashboardPage, OrgLink, orgLink, PostForm, Table, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { moneyFactsOf, MoneyFactsList, shortfallAmount, type MoneyFacts } from './money-facts.js';
import { autoRechargeWalletSection, changeFromWallet, walletFormAction } from './wallet-auto-recharge.js';
import { payoutSettingsSection } from './wallet-payout-settings.js';
import { payoutsWalletSection } from './wallet-payouts.js';

const signed = (micros: number) => (micros === 0 ? '' : `${micros > 0 ? '+' : '−'}${formatUsd(Math.abs(micros))}`);
const usd = (micros: number) => formatUsd(toCentsMicros(micros));

/**
 * Newest first. Each change shown is the change of the rounded running total (shownDeltaMicros), so the change
 * columns, read from the opening row up, add up to the totals shown; the opening row is the totals before the
 * oldest entry listed (zero when the listing reaches the wallet's first entry).
 */
function LedgerTable({ lines }: { lines: LedgerLine[] }) {
  if (lines.length === 0) return <p class="muted">No entries yet.</p>;
  const oldest = lines.at(-1)!;
  const openBalance = Number(oldest.balance_after_micros) - Number(oldest.balance_delta_micros);
  const openReserved = Number(oldest.reserved_after_micros) - Number(oldest.reserved_delta_micros);
  return (
    <Table
      id="ledger"
      columns={['When', 'Entry', 'Balance change', 'Reserved change', 'Balance after', 'Reserved after', 'Note']}
      label="Ledger"
    >
      {lines.map((l) => (
        <tr>
          <td>
            <LocalTime at={l.created_at} />
          </td>
          <td>{l.entry_type}</td>
          <td class="num balance-change">{signed(shownDeltaMicros(Number(l.balance_after_micros), Number(l.balance_delta_micros)))}</td>
          <td class="num reserved-change">{signed(shownDeltaMicros(Number(l.reserved_after_micros), Number(l.reserved_delta_micros)))}</td>
          <td class="num">{usd(Number(l.balance_after_micros))}</td>
          <td class="num">{usd(Number(l.reserved_after_micros))}</td>
          <td>{l.memo ?? l.commission_id ?? l.bonus_award_id ?? l.external_ref ?? ''}</td>
        </tr>
      ))}
      {openBalance !== 0 || openReserved !== 0 ? (
        <tr class="opening">
          <td colSpan={2}>Before these entries</td>
          <td class="num balance-change">{usd(openBalance)}</td>
          <td class="num reserved-change">{usd(openReserved)}</td>
          <td class="num">{usd(openBalance)}</td>
          <td class="num">{usd(openReserved)}</td>
          <td />
        </tr>
      ) : null}
    </Table>
  );
}

/** Production commissions still in their holding period, with the date each becomes payable. */
function HeldTable({ held }: { held: HeldCommission[] }) {
  if (held.length === 0) return <p class="muted">No commission is in its holding period.</p>;
  return (
    <Table id="held" columns={['Campaign', 'Commission', 'Platform fee', 'State', 'Payable from']} label="Held commissions">
      {held.map((c) => (
        <tr>
          <td>{c.campaign_name}</td>
          <td class="num">{formatUsd(Number(c.commission_micros))}</td>
          <td class="num">{formatUsd(Number(c.platform_fee_micros))}</td>
          <td>
            {c.review_state === 'held' ? (
              <Badge tone="warn">held for review</Badge>
            ) : (
              <Badge tone={c.status === 'unfunded' ? 'bad' : 'warn'}>{c.status === 'unfunded' ? 'unfunded: top up' : 'held'}</Badge>
            )}
          </td>
          <td>
            {/* A commission held for review is payable only once approved: its date is the earliest it could be. */}
            {c.review_state === 'held' ? 'after approval, from ' : null}
            <LocalTime at={c.payable_at} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** What a form post hands back to the page it re-renders (a failed auto-recharge change's values and errors, a refused top-up). */
interface WalletState {
  recharge?: RechargeForm;
  topup?: FormState;
  facts?: MoneyFacts;
}

type WalletSection = (ctx: AppContext, s: SignedIn, state: WalletState) => Promise<VNode | null>;

const topupSection: WalletSection = async (ctx, s, state) => {
  if (!canManage(s)) return <p class="muted">Owners and admins top up the wallet.</p>;
  const { TOPUP_MIN_USD: min, TOPUP_MAX_USD: max } = ctx.deps.config;
  const facts = state.facts!;
  return (
    <>
      <h2 id="topup">Top up</h2>
      {facts.shortfallMicros > 0 ? (
        <p>
          The safe balance is {formatUsd(facts.shortfallMicros)} short of the minimum escrow: the amount below is filled in to reach it.
        </p>
      ) : null}
      <PostForm s={s} action={orgLink(s, '/dashboard/wallet/topup')}>
        <Field
          id="topup-amount"
          name="amount_usd"
          label={`Amount (USD, ${min} to ${max})`}
          inputmode="decimal"
          required
          value={shortfallAmount(facts, min)}
          state={state.topup}
        />
        <button type="submit">Continue to top-up</button>
      </PostForm>
    </>
  );
};

export const WALLET_SECTIONS: WalletSection[] = [
  topupSection,
  (ctx, s, state) => autoRechargeWalletSection(ctx, s, state.recharge),
  payoutsWalletSection,
  payoutSettingsSection,
];

export async function showWallet(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (s) await walletPage(ctx, s);
}

async function walletPage(ctx: AppContext, s: SignedIn, status = 200, state: WalletState = {}): Promise<void> {
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Wallet', <p>You belong to no organization.</p>);
  const db = ctx.deps.db;
  const [totals, facts, lines, held] = await Promise.all([
    getWalletTotals(db, s.orgId),
    moneyFactsOf(ctx, s.orgId),
    listLedgerEntries(db, s.orgId),
    listHeldCommissions(db, s.orgId),
  ]);
  const view = walletView(totals);
  const sections = await Promise.all(WALLET_SECTIONS.map((section) => section(ctx, s, { ...state, facts })));
  dashboardPage(
    ctx,
    s,
    status,
    'Wallet',
    <>
      <table>
        <tbody>
          <tr>
            <th scope="row">Balance</th>
            <td id="wallet-balance">{formatUsd(view.balance_micros)}</td>
          </tr>
          <tr>
            <th scope="row">Reserved (commissions awaiting payout)</th>
            <td id="wallet-reserved">{formatUsd(view.reserved_micros)}</td>
          </tr>
          <tr>
            <th scope="row">Safe available</th>
            <td id="wallet-safe">{formatUsd(view.safe_available_micros)}</td>
          </tr>
        </tbody>
      </table>
      <MoneyFactsList s={s} facts={facts} />
      {sections}
      <h2>Held commissions (soonest first)</h2>
      <HeldTable held={held} />
      <h2>Ledger (latest 50 entries)</h2>
      <p>
        <OrgLink s={s} to="/dashboard/wallet/ledger">
          All entries: search, sort and CSV export
        </OrgLink>
      </p>
      <LedgerTable lines={lines} />
    </>,
    { formAction: walletFormAction(ctx) },
  );
}

/** Enable, change or disable auto-recharge from the wallet page: Stripe answers a redirect to its Checkout. */
export async function changeAutoRecharge(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const change = await changeFromWallet(ctx, s);
  if (change.kind === 'redirect') {
    ctx.status = 303;
    return ctx.redirect(change.url);
  }
  await walletPage(ctx, s, change.status, { recharge: change });
}

export async function startTopup(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s))
    return dashboardPage(
      ctx,
      s,
      403,
      'Wallet',
      <p class="error" role="alert">
        Only owners and admins top up the wallet.
      </p>,
    );
  const masterKey = ctx.deps.config.SVC_MASTER_KEY;
  if (!masterKey)
    return dashboardPage(
      ctx,
      s,
      503,
      'Wallet',
      <p class="error" role="alert">
        Top-ups need SVC_MASTER_KEY to be configured.
      </p>,
    );
  const amount = (ctx.state.body as Record<string, unknown> | undefined)?.amount_usd;
  // A bad amount is an error beside the field with what was typed, never a silent default.
  const problem = usdAmountProblem(amount, ctx.deps.config);
  if (problem) {
    const typed = typeof amount === 'string' ? amount : '';
    const flashed = {
      ...s,
      flash: { flash: { tone: 'bad' as const, text: `Not started: the amount ${typed ? `"${typed}" ` : ''}is not one we can take.` } },
    };
    return walletPage(ctx, flashed, 422, { topup: { errors: { amount_usd: `${problem}.` }, values: { amount_usd: typed } } });
  }
  const extra = { amount_usd: (amount as string).trim() };
  const link = createSignedLink({ masterKey, dashboardUrl: ctx.deps.config.DASHBOARD_URL, purpose: 'wallet-topup', org: s.orgId, extra });
  ctx.status = 303;
  ctx.redirect(link.url);
}
