// Every activity the worker registers, built from injected dependencies (the worker builds them once).
import type { Knex } from 'knex';
import { createAutoRechargeActivities, walletDropSignal } from './auto-recharge.js';
import { createPurchaseFailureActivities, type EventFailedObserver } from './purchases/failures.js';
import type { Config } from '../runtime/config.js';
import { createPayoutActivities } from './payouts.js';
import { createPurchaseActivities } from './purchases/index.js';
import { createLateAttributionActivities } from './purchases/late-attribution.js';
import { createStoreDirectActivities } from './store-direct/index.js';
import { createSystemActivities } from './system.js';
import { createTestIntegrationActivities } from './test-integration.js';

export interface ActivityDeps {
  db: Knex;
  platformFeePercent: number;
  /** The running configuration (store and FX URLs, APPLE_ROOT_CERTS, SVC_MASTER_KEY), read by activities at call time. */
  config: Config;
  /** Told each time an event is newly recorded as failed (the worker's Prometheus counter). */
  onEventFailed?: EventFailedObserver;
}

export function createActivities(deps: ActivityDeps) {
  const purchaseDeps = { ...deps, holdingDayMs: deps.config.HOLDING_PERIOD_DAY_MS, onWalletMayDrop: walletDropSignal(deps) };
  return {
    ...createSystemActivities(deps),
    ...createPurchaseActivities(purchaseDeps),
    ...createLateAttributionActivities(purchaseDeps),
    ...createPurchaseFailureActivities(deps),
    ...createTestIntegrationActivities(deps),
    ...createStoreDirectActivities(deps),
    ...createAutoRechargeActivities(deps),
    ...createPayoutActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
