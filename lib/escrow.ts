// Campaign activation and invitations need money behind them (spec "Limits", wallet row): a campaign may go active
// only while the wallet's safe balance is at or above the minimum escrow. The organization may override the
// service default (MIN_ESCROW_USD); the human tops up through a signed link the agent asks for.
import { formatUsd, toMicros } from './money.js';

/** Where an agent gets the signed top-up link for its human (no money moves through the agent). */
export const TOPUP_LINK_ENDPOINT = 'POST /api/agent/wallet/topup-link';

export function minEscrowMicros(orgOverrideMicros: number | null | undefined, defaultUsd: number): number {
  return orgOverrideMicros ?? toMicros(defaultUsd);
}

export function canActivateCampaigns(safeAvailableMicros: number, minMicros: number): boolean {
  return safeAvailableMicros >= minMicros;
}

/** The 402 text of a bonus approval the wallet cannot cover (an extension of the spec's 402 list). */
export function bonusApprovalRefusal(amountMicros: number, safeAvailableMicros: number): string {
  return (
    `Approving this bonus reserves ${formatUsd(amountMicros)}; the wallet's safe balance is ${formatUsd(safeAvailableMicros)}. ` +
    `Get a top-up link for the human with ${TOPUP_LINK_ENDPOINT}, then retry.`
  );
}

/** The 402 text: what is missing and how to resolve it. */
export function activationRefusal(safeAvailableMicros: number, minMicros: number): string {
  return (
    `Activating a campaign needs a wallet safe balance of at least ${formatUsd(minMicros)}; it is ${formatUsd(safeAvailableMicros)}. ` +
    `Get a top-up link for the human with ${TOPUP_LINK_ENDPOINT}, then retry.`
  );
}
