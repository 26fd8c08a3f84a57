// The auto-recharge check of the API's own wallet changes: after a top-up (its catch-up may reserve waiting
// commissions and leave the wallet below the threshold), after a bonus approval, and when a human enables it. The
// change is committed either way, so a failure to reach Temporal is only logged; the next drop checks again.
import { rechargeIfLow } from '../workflow-clients/auto-recharge.js';
import type { AppContext } from './context.js';
import { requestLog } from './middleware/request-context.js';

export async function checkAutoRecharge(ctx: AppContext, orgId: string): Promise<void> {
  const { db, config, temporal } = ctx.deps;
  try {
    await rechargeIfLow({ client: temporal, db, config, taskQueue: config.TEMPORAL_TASK_QUEUE }, { orgId });
  } catch (err) {
    requestLog(ctx).warn({ orgId, err: err instanceof Error ? err.message : String(err) }, 'auto-recharge check failed');
  }
}
