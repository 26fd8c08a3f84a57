// The conversion workflow's purchase activities: apply one event, record one the apply step refused, release the
// commissions due. The rules and their transactions are the actions' (actions/purchase-event/); an activity
// translates their errors for Temporal (failures.ts) and sends the auto-recharge signal after the commit.
import { ApplicationFailure } from '@temporalio/activity';
import { isRefusedData } from '../../errors/pg-errors.js';
import { EVENT_REJECTED, type IngestEvent, type IngestResult, type ReleaseTarget } from '../../workflows/conversion-messages.js';
import { applyPurchaseEvent, type Applied, type ApplyDeps, type WalletDrop } from '../../actions/purchase-event/apply.js';
import { recordRejectedPurchaseEvent, REJECTED_EVENT } from '../../actions/purchase-event/record-failed.js';
import { releaseDueCommissions } from '../../actions/purchase-event/release-commissions.js';
import { retryOrFail } from './failures.js';

export type { WalletDrop } from '../../actions/purchase-event/apply.js';

export interface PurchaseDeps extends ApplyDeps {
  /**
   * The auto-recharge signal, told after the transaction: the organization whose wallet this event left below its
   * threshold (known under the lock), or, for a repeat (a retry after a crash must still signal), the conversion
   * whose wallet may have dropped. Its failure never fails the event.
   */
  onWalletMayDrop?: (drop: WalletDrop) => Promise<void>;
}

export function createPurchaseActivities(deps: PurchaseDeps) {
  return {
    async applyPurchaseEvent(ingest: IngestEvent): Promise<IngestResult> {
      let applied: Applied;
      try {
        applied = await applyPurchaseEvent(deps, ingest);
      } catch (err) {
        // Data the database refuses (classes 22 and 23) will be refused on every retry: fail for good, so the
        // conversion is not blocked behind an event that can never apply.
        if (isRefusedData(err)) {
          throw ApplicationFailure.nonRetryable(`${REJECTED_EVENT} (${(err as { code: string }).code})`, EVENT_REJECTED);
        }
        // Outages and lost races retry until they pass; anything else gets a few attempts, then fails for good
        // and is recorded as failed (failures.ts).
        throw retryOrFail(err);
      }
      if (applied.wallet && deps.onWalletMayDrop) await deps.onWalletMayDrop(applied.wallet);
      return applied.result;
    },

    /** Records an event that applyPurchaseEvent refused for good, so a redelivery answers the same. */
    async recordRejectedPurchaseEvent(ingest: IngestEvent): Promise<IngestResult> {
      return recordRejectedPurchaseEvent(deps, ingest);
    },

    /** The conversion workflow's release step; answers when it must release next (epoch ms), or null. */
    async releaseDueCommissions(target: ReleaseTarget): Promise<number | null> {
      return releaseDueCommissions(deps, target);
    },
  };
}
