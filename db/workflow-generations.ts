// workflow_generations: which generation of a workflow's code a database's open runs were recorded with.
import type { Knex } from 'knex';

export async function findWorkflowGeneration(db: Knex, workflow: string): Promise<number | undefined> {
  const row = await db('workflow_generations').where('workflow', workflow).first<{ generation: number } | undefined>('generation');
  return row?.generation;
}

export async function recordWorkflowGeneration(db: Knex, workflow: string, generation: number): Promise<void> {
  await db('workflow_generations').insert({ workflow, generation, recorded_at: db.fn.now() }).onConflict('workflow').merge();
}

/** Whether any purchase event was ever recorded (a database from before generations then holds older runs). */
export async function holdsPurchaseEvents(db: Knex): Promise<boolean> {
  return Boolean(await db('purchase_events').first('id'));
}
