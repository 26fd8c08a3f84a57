// Agent keys (only their digest is stored, db/agent-keys-writes.ts): issued on the dashboard's connect-agent page
// (api/dashboard/agents/agents-page.tsx, audited), by `svc agent-key` (cli/main.ts) and revoked from the page (audited);
// each authenticated use marks the key's last use (api/auth/authenticate.ts, best effort).
import type { Knex } from 'knex';
import type { NewAgentKey } from '../db/agent-keys.js';
import { createAgentKey, revokeAgentKeyInOrgs, touchAgentKey } from '../db/agent-keys-writes.js';
import { recordAudit } from './audit.js';

/** Who acts on the dashboard, for the audit entry. */
export interface DashboardActor {
  orgId: string | null;
  userId: string;
  requestId?: string | null;
  ip?: string | null;
}

/** A new key; its plain value is in the answer only. */
export async function issueAgentKey(deps: { db: Knex }, input: NewAgentKey): Promise<{ id: string; key: string }> {
  return createAgentKey(deps.db, input);
}

export async function issueAgentKeyOnDashboard(
  deps: { db: Knex },
  input: { key: NewAgentKey; actor: DashboardActor },
): Promise<{ id: string; key: string }> {
  const key = await createAgentKey(deps.db, input.key);
  await audit(deps, input.actor, 'dashboard.create_agent_key', key.id);
  return key;
}

/** Revokes a live key of one of `orgIds`; false when there is none. */
export async function revokeAgentKeyOnDashboard(
  deps: { db: Knex },
  input: { keyId: string; orgIds: readonly string[]; actor: DashboardActor },
): Promise<boolean> {
  if (!(await revokeAgentKeyInOrgs(deps.db, input.keyId, input.orgIds))) return false;
  await audit(deps, input.actor, 'dashboard.revoke_agent_key', input.keyId);
  return true;
}

export async function noteAgentKeyUse(deps: { db: Knex }, input: { keyId: string }): Promise<void> {
  await touchAgentKey(deps.db, input.keyId);
}

function audit(deps: { db: Knex }, a: DashboardActor, action: string, keyId: string): Promise<void> {
  return recordAudit(deps, {
    orgId: a.orgId,
    actorType: 'user',
    actorId: a.userId,
    action,
    targetType: 'agent_key',
    targetId: keyId,
    requestId: a.requestId,
    ip: a.ip,
  });
}
