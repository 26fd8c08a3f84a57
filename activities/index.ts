// Every activity the worker registers, built from injected dependencies (the worker builds them once).
import type { Knex } from 'knex';
import type { Config } from '../lib/config.js';
import { createPurchaseActivities } from './purchases/index.js';
import { createStoreDirectActivities } from './store-direct/index.js';
import { createSystemActivities } from './system.js';
import { createTestIntegrationActivities } from './test-integration.js';

export interface ActivityDeps { db: Knex; platformFeePercent: number; config: Config }

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createPurchaseActivities(deps),
    ...createTestIntegrationActivities(deps),
    ...createStoreDirectActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
