// Campaign activation and invitations need money behind them (spec "Limits", wallet row): a campaign may go active
// only while the wallet's safe balance is at or above the minimum escrow. The organization may override the
// service default (MIN_ESCROW_USD); the human tops up through a signed link the agent asks for
// (api/agent/escrow-refusals.ts words the refusals).
import { toMicros } from './money.js';

export function minEscrowMicros(orgOverrideMicros: number | null | undefined, defaultUsd: number): number {
  return orgOverrideMicros ?? toMicros(defaultUsd);
}

export function canActivateCampaigns(safeAvailableMicros: number, minMicros: number): boolean {
  return safeAvailableMicros >= minMicros;
}
