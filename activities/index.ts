// Every activity the worker registers, built from injected dependencies (the worker builds them once).
import type { Knex } from 'knex';
import { createSystemActivities } from './system.js';

export interface ActivityDeps { db: Knex }

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
