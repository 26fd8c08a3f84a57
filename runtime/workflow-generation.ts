// The guard of `svc dev` and `svc worker`: the database's open conversion runs must have been recorded by the
// generation of the workflow code this process runs (docs/purchase-pipeline.md "Workflow versions"), else they would fail replay.
import type { Knex } from 'knex';
import { findWorkflowGeneration, holdsPurchaseEvents, recordWorkflowGeneration } from '../db/workflow-generations.js';
import { CONVERSION_WORKFLOW_GENERATION } from '../workflows/conversion-messages.js';

export class WorkflowGenerationError extends Error {}

/** Stamps a database that never held a purchase event; refuses one recorded by another generation. */
export async function assertWorkflowGeneration(db: Knex): Promise<void> {
  const recorded = await findWorkflowGeneration(db, 'conversion');
  if (recorded === CONVERSION_WORKFLOW_GENERATION) return;
  if (recorded === undefined && !(await holdsPurchaseEvents(db))) {
    await recordWorkflowGeneration(db, 'conversion', CONVERSION_WORKFLOW_GENERATION);
    return;
  }
  if (recorded !== undefined && recorded > CONVERSION_WORKFLOW_GENERATION) {
    throw new WorkflowGenerationError(
      `The database's conversion workflows were recorded by a newer version ` +
        `(generation ${recorded}; this one runs ${CONVERSION_WORKFLOW_GENERATION}): run that version.`,
    );
  }
  throw new WorkflowGenerationError(
    `The database holds conversion workflows of an older generation ` +
      `(${recorded ?? 'pre-release'}; this version runs ${CONVERSION_WORKFLOW_GENERATION}), ` +
      'whose open runs this code cannot replay. Run `svc workflows ' +
      'rehydrate` (with `svc dev`: `svc dev --rehydrate`) to restart them from ' +
      'PostgreSQL, or `svc dev --reset` to start over with an empty data folder.',
  );
}
