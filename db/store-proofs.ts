// Store-direct proofs (store_purchase_proofs): one row per app and proof hash, the latest outcome of its
// store-purchase workflow: verified (with the answer and the event it recorded) or rejected (with the reason).
import type { Knex } from 'knex';
import type { StorePlatform, StoreProofStatus } from '../schema/types.js';

export interface ProofOutcome {
  appId: string;
  proofHash: string;
  platform: StorePlatform;
  workflowId: string | null;
  status: StoreProofStatus;
  purchaseEventId: string | null;
  result: Record<string, unknown>;
}

/** Records the proof's latest outcome (a later report of the same proof overwrites it). */
export async function recordStoreProof(db: Knex, o: ProofOutcome): Promise<void> {
  await db('store_purchase_proofs')
    .insert({
      app_id: o.appId,
      proof_hash: o.proofHash,
      platform: o.platform,
      workflow_id: o.workflowId,
      status: o.status,
      purchase_event_id: o.purchaseEventId,
      result: o.result,
    })
    .onConflict(['app_id', 'proof_hash'])
    .merge(['workflow_id', 'status', 'purchase_event_id', 'result']);
}
