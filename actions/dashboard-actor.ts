// A person acting on the dashboard, as the money actions audit them (audit_log, db/audit-log.ts): the signed-in user,
// the request and the address it came from.
import type { Knex } from 'knex';
import { appendAudit, type AuditEntry } from '../db/audit-log.js';

export interface DashboardActor {
  userId: string;
  requestId?: string | null;
  ip?: string | null;
}

/** The audit entry of an action `by` took in the organization. */
export async function auditDashboardAction(
  db: Knex,
  by: DashboardActor,
  e: Pick<AuditEntry, 'orgId' | 'action' | 'targetType' | 'targetId' | 'details'>,
): Promise<void> {
  await appendAudit(db, { ...e, actorType: 'user', actorId: by.userId, requestId: by.requestId, ip: by.ip });
}
