// Who did what: every mutating call by an agent (and later by dashboard users) is written here with the actor.
import type { Knex } from 'knex';

export interface AuditEntry {
  orgId: string | null;
  actorType: 'agent_key' | 'oauth' | 'user' | 'system';
  actorId: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  requestId?: string | null;
  ip?: string | null;
}

export async function appendAudit(db: Knex, e: AuditEntry): Promise<void> {
  await db('audit_log').insert({
    org_id: e.orgId,
    actor_type: e.actorType,
    actor_id: e.actorId,
    action: e.action,
    target_type: e.targetType ?? null,
    target_id: e.targetId ?? null,
    details: e.details ?? {},
    request_id: e.requestId ?? null,
    ip: e.ip ?? null,
  });
}
