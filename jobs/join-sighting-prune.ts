// Forgets creators' join addresses past their retention (actions/join-sightings.ts), from the worker process: once at
// start, then every hour. A missed pass only keeps an address an hour longer.
import type { Knex } from 'knex';
import { pruneJoinSightings } from '../actions/join-sightings.js';
import type { Logger } from '../runtime/logger.js';
import { startPeriodicPass } from './periodic-pass.js';

export const JOIN_SIGHTING_PRUNE_EVERY_MS = 60 * 60_000;

export function startJoinSightingPrune(db: Knex, logger: Logger, everyMs = JOIN_SIGHTING_PRUNE_EVERY_MS): { stop(): Promise<void> } {
  return startPeriodicPass(
    {
      everyMs,
      run: () => pruneJoinSightings({ db }),
      log: {
        done: 'join addresses past their retention forgotten',
        counted: 'memberships',
        failed: 'join address prune failed (the next pass tries again)',
      },
    },
    logger,
  );
}
