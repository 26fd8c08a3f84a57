// GET /dashboard/wallet: balance, reserved and safe available (walletView, the shape every surface uses), whether
// campaigns can be activated, the latest ledger entries, and the top-up form. Topping up goes through the existing
// signed-link flow (topup-pages.tsx): POST /dashboard/wallet/topup (session + CSRF, owners and admins)
// signs a wallet-topup link for the organization and redirects the human to it, so there is one payment path.
// Auto-recharge (wallet-auto-recharge.tsx: inline forms, POST /dashboard/wallet/auto-recharge) and payouts
// (wallet-payouts.tsx, its own routes) are sections of WALLET_SECTIONS.
import type { VNode } from 'preact';
import { findOrgBillingSettings } from '../../db/organizations.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { listLedgerEntries, type LedgerLine } from '../../db/wallet-history.js';
import { canActivateCampaigns, minEscrowMicros } from '../../lib/escrow.js';
import { formatUsd, walletView } from '../../lib/money.js';
import { createSignedLink } from '../../lib/signed-links.js';
import type { AppContext } from '../context.js';
import type { RechargeForm } from './auto-recharge-page.js';
import { canManage, dashboardPage, orgLink, PostForm, signedIn, Table, type SignedIn } from './layout.js';
import { autoRechargeWalletSection, changeFromWallet, walletFormAction } from './wallet-auto-recharge.js';
import { payoutSettingsSection } from './wallet-payout-settings.js';
import { payoutsWalletSection } from './wallet-payouts.js';

const signed = (micros: number) => (micros === 0 ? '' : `${micros > 0 ? '+' : '−'}${formatUsd(Math.abs(micros))}`);

function LedgerTable({ lines }: { lines: LedgerLine[] }) {
  if (lines.length === 0) return <p class="muted">No entries yet.</p>;
  return (
    <Table id="ledger" columns={['When', 'Entry', 'Balance change', 'Reserved change', 'Balance after', 'Reserved after', 'Note']}>
      {lines.map((l) => <tr><td>{new Date(l.created_at).toISOString().replace('T', ' ').slice(0, 19)}</td><td>{l.entry_type}</td><td>{signed(Number(l.balance_delta_micros))}</td><td>{signed(Number(l.reserved_delta_micros))}</td><td>{formatUsd(Number(l.balance_after_micros))}</td><td>{formatUsd(Number(l.reserved_after_micros))}</td><td>{l.memo ?? l.commission_id ?? l.bonus_award_id ?? l.external_ref ?? ''}</td></tr>)}
    </Table>
  );
}

/** What a form post hands back to the page it re-renders (a failed auto-recharge change's values and errors). */
interface WalletState { recharge?: RechargeForm }

type WalletSection = (ctx: AppContext, s: SignedIn, state: WalletState) => Promise<VNode | null>;

const topupSection: WalletSection = async (ctx, s) => (canManage(s)
  ? <>
    <h2>Top up</h2>
    <PostForm s={s} action={orgLink(s, '/dashboard/wallet/topup')}>
      <label for="topup-amount">Amount (USD, {ctx.deps.config.TOPUP_MIN_USD} to {ctx.deps.config.TOPUP_MAX_USD})</label><input id="topup-amount" name="amount_usd" inputmode="decimal" value={String(ctx.deps.config.TOPUP_MIN_USD)} />
      <button type="submit">Continue to top-up</button>
    </PostForm>
  </>
  : <p class="muted">Owners and admins top up the wallet.</p>);

export const WALLET_SECTIONS: WalletSection[] = [topupSection, (ctx, s, state) => autoRechargeWalletSection(ctx, s, state.recharge), payoutsWalletSection, payoutSettingsSection];

export async function showWallet(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (s) await walletPage(ctx, s);
}

async function walletPage(ctx: AppContext, s: SignedIn, status = 200, state: WalletState = {}): Promise<void> {
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Wallet', <p>You belong to no organization.</p>);
  const db = ctx.deps.db;
  const [totals, settings, lines] = await Promise.all([getWalletTotals(db, s.orgId), findOrgBillingSettings(db, s.orgId), listLedgerEntries(db, s.orgId)]);
  const view = walletView(totals);
  const min = minEscrowMicros(settings?.min_escrow_micros, ctx.deps.config.MIN_ESCROW_USD);
  const sections = await Promise.all(WALLET_SECTIONS.map((section) => section(ctx, s, state)));
  dashboardPage(ctx, s, status, 'Wallet', <>
    <table><tbody>
      <tr><th scope="row">Balance</th><td id="wallet-balance">{formatUsd(view.balance_micros)}</td></tr>
      <tr><th scope="row">Reserved (commissions awaiting payout)</th><td id="wallet-reserved">{formatUsd(view.reserved_micros)}</td></tr>
      <tr><th scope="row">Safe available</th><td id="wallet-safe">{formatUsd(view.safe_available_micros)}</td></tr>
      <tr><th scope="row">Minimum escrow to activate campaigns</th><td>{formatUsd(min)} · {canActivateCampaigns(view.safe_available_micros, min) ? <span class="done">campaigns can be activated</span> : <span class="open">below: top up to activate campaigns</span>}</td></tr>
    </tbody></table>
    {sections}
    <h2>Ledger (latest 50 entries)</h2><LedgerTable lines={lines} />
  </>, { formAction: walletFormAction(ctx) });
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
  if (!s.orgId || !canManage(s)) return dashboardPage(ctx, s, 403, 'Wallet', <p class="error" role="alert">Only owners and admins top up the wallet.</p>);
  const masterKey = ctx.deps.config.SVC_MASTER_KEY;
  if (!masterKey) return dashboardPage(ctx, s, 503, 'Wallet', <p class="error" role="alert">Top-ups need SVC_MASTER_KEY to be configured.</p>);
  const amount = (ctx.state.body as Record<string, unknown> | undefined)?.amount_usd;
  const extra = typeof amount === 'string' && /^\d{1,9}(\.\d{1,2})?$/.test(amount.trim()) ? { amount_usd: amount.trim() } : undefined;
  const link = createSignedLink({ masterKey, dashboardUrl: ctx.deps.config.DASHBOARD_URL, purpose: 'wallet-topup', org: s.orgId, extra });
  ctx.status = 303;
  ctx.redirect(link.url);
}
