// The agent API's words when the wallet is short of escrow (lib/escrow.ts decides when): what is missing and the
// call that gets the human a top-up link.
import { formatUsd } from '../../lib/money.js';

/** Where an agent gets the signed top-up link for its human (no money moves through the agent). */
export const TOPUP_LINK_ENDPOINT = 'POST /api/agent/wallet/topup-link';

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
