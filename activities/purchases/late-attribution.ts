// The conversion workflow's `attributeLate` update runs this activity: the app's report attributes a conversion
// applied as organic (actions/purchase-event/late-attribution.ts owns the rule and its transaction). This activity
// translates its errors for Temporal and sends the auto-recharge signal after the commit.
import { ApplicationFailure } from '@temporalio/activity';
import { isRefusedData } from '../../errors/pg-errors.js';
import { attributeConversionLate, type LateAttribution } from '../../actions/purchase-event/late-attribution.js';
import { EVENT_REJECTED, type IngestEvent, type LateAttributionResult } from '../../workflows/conversion-messages.js';
import { reasonOf, retryOrFail } from './failures.js';
import type { PurchaseDeps } from './index.js';

export function createLateAttributionActivities(deps: PurchaseDeps) {
  return {
    async attributeConversionLate(report: IngestEvent): Promise<LateAttributionResult> {
      let late: LateAttribution;
      try {
        late = await attributeConversionLate(deps, report);
      } catch (err) {
        // Data the database refuses will be refused on every retry; anything else as for an event (failures.ts).
        if (isRefusedData(err)) throw ApplicationFailure.nonRetryable(reasonOf(err), EVENT_REJECTED);
        throw retryOrFail(err);
      }
      if (late.walletLowOrgId && deps.onWalletMayDrop) await deps.onWalletMayDrop({ orgId: late.walletLowOrgId });
      return late.result;
    },
  };
}
