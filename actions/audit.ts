// Who did what (db/audit-log.ts): the entry a handler or the audit middleware (api/middleware/audit.ts) records after
// a state-changing call succeeded, outside that call's own transaction.
import type { Knex } from 'knex';
import { appendAudit, type AuditEntry } from '../db/audit-log.js';

export type { AuditEntry } from '../db/audit-log.js';

export async function recordAudit(deps: { db: Knex }, entry: AuditEntry): Promise<void> {
  await appendAudit(deps.db, entry);
}
