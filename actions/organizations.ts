// A new organization created by an agent (POST /api/agent/organizations, and svc_provision naming a new one through
// actions/provision.ts): owned by the human behind the credential and, for an OAuth grant, added to the grant at
// once (the consent page says the grant covers the organizations the client creates). An agent key belongs to
// exactly one organization (agent_keys.org_id), so it never reaches the new one.
import type { Knex } from 'knex';
import { addOrgToOauthGrant } from '../db/oauth-grants-writes.js';
import { addMembership, createOrganization } from '../db/organizations-writes.js';
import { ConflictError } from '../errors/http-errors.js';
import type { AgentPrincipal } from '../lib/principal.js';

export interface CreatedOrganization {
  id: string;
  name: string;
  ownerUserId: string;
  reachable: boolean;
}

/** Inside the caller's transaction: the organization, its owner's membership and (OAuth) its place in the grant. */
export async function createOrganizationOf(trx: Knex.Transaction, agent: AgentPrincipal, name: string): Promise<CreatedOrganization> {
  const userId = agent.userId;
  if (!userId) {
    throw new ConflictError(
      'This credential was not created by a dashboard user, so a new ' +
        'organization would have no owner. A human can create it in the dashboard.',
    );
  }
  const created = await createOrganization(trx, { name: name.trim(), createdByUserId: userId });
  await addMembership(trx, created.id, userId, 'owner');
  const reachable = agent.authMode === 'oauth';
  if (reachable) await addOrgToOauthGrant(trx, agent.id, created.id);
  return { ...created, ownerUserId: userId, reachable };
}

export async function createAgentOrganization(
  deps: { db: Knex },
  input: { agent: AgentPrincipal; name: string },
): Promise<CreatedOrganization> {
  return deps.db.transaction((trx) => createOrganizationOf(trx, input.agent, input.name));
}
