// The money rules a decision depends on, shown where the decision is made (creating or activating a campaign,
// topping up) instead of after an action fails: the minimum escrow and how far the safe balance is from it, the
// platform fee reserved on top of each commission, and the holding period before commissions become payable.
import { findOrgBillingSettings } from '../../../db/organizations.js';
import { getWalletTotals } from '../../../db/wallet-ledger.js';
import { canActivateCampaigns, minEscrowMicros } from '../../../lib/escrow.js';
import { formatUsd, toCentsMicros } from '../../../lib/money.js';
import type { AppContext } from '../../context.js';
import { OrgLink, type SignedIn } from '../../view-kit/layout.js';

export interface MoneyFacts {
  minEscrowMicros: number;
  safeMicros: number;
  shortfallMicros: number;
  feePercent: number;
  canActivate: boolean;
}

export async function moneyFactsOf(ctx: AppContext, orgId: string): Promise<MoneyFacts> {
  const [totals, settings] = await Promise.all([getWalletTotals(ctx.deps.db, orgId), findOrgBillingSettings(ctx.deps.db, orgId)]);
  const min = minEscrowMicros(settings?.min_escrow_micros, ctx.deps.config.MIN_ESCROW_USD);
  const safe = totals.safeAvailableMicros;
  // Rounded up to whole cents, so topping up the pre-filled amount always clears the minimum.
  const short = Math.max(0, min - safe);
  return {
    minEscrowMicros: min,
    safeMicros: safe,
    shortfallMicros: short === 0 ? 0 : Math.ceil(short / 10_000) * 10_000,
    feePercent: ctx.deps.config.PLATFORM_FEE_PERCENT,
    canActivate: canActivateCampaigns(safe, min),
  };
}

/** The shortfall as the top-up form's amount (at least the smallest top-up), e.g. "12.34". */
export function shortfallAmount(facts: MoneyFacts, minTopupUsd: number): string {
  const usd = Math.max(toCentsMicros(facts.shortfallMicros) / 1e6, minTopupUsd);
  return Number.isInteger(usd) ? String(usd) : usd.toFixed(2);
}

/** The facts as a short list; `holdingDays` names a campaign's own holding period when there is one. */
export function MoneyFactsList({ s, facts, holdingDays }: { s: SignedIn; facts: MoneyFacts; holdingDays?: number }) {
  return (
    <ul class="money-facts" id="money-facts">
      <li>
        <strong>Minimum escrow to activate a campaign:</strong> {formatUsd(facts.minEscrowMicros)}. Safe balance now{' '}
        {formatUsd(facts.safeMicros)}:{' '}
        {facts.canActivate ? (
          <span class="done">enough to activate</span>
        ) : (
          <>
            <span class="open">short by {formatUsd(facts.shortfallMicros)}</span> (
            <OrgLink s={s} to="/dashboard/wallet#topup">
              top up
            </OrgLink>
            )
          </>
        )}
        .
      </li>
      <li>
        <strong>Platform fee:</strong> {facts.feePercent}% of each commission, reserved from the wallet on top of the commission.
      </li>
      <li>
        <strong>Holding period:</strong>{' '}
        {holdingDays === undefined
          ? 'each campaign holds its commissions for its holding period (default 30 days)'
          : `this campaign holds commissions for ${holdingDays} days`}{' '}
        before they become payable; a refund inside it reverses the commission.
      </li>
    </ul>
  );
}
