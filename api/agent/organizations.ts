// POST /api/agent/organizations: a new organization owned by the human behind the credential. An agent key belongs
// to exactly one organization (agent_keys.org_id) and an OAuth grant lists its organizations at consent, so the
// calling credential cannot reach the new organization: the answer says so and how to get one that can.
import { addMembership, createOrganization } from '../../db/organizations.js';
import { ConflictError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { agentOf } from './principal.js';

export const createOrganizationBody = {
  type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
} as const;

export async function createOrganizationHandler(ctx: AppContext): Promise<void> {
  const agent = agentOf(ctx);
  if (!agent.userId) {
    throw new ConflictError('This credential was not created by a dashboard user, so a new organization would have no owner. A human can create it in the dashboard.');
  }
  const userId = agent.userId;
  const { name } = inputOf<{ name: string }>(ctx);
  const org = await ctx.deps.db.transaction(async (trx) => {
    const created = await createOrganization(trx, { name: name.trim(), createdByUserId: userId });
    await addMembership(trx, created.id, userId, 'owner');
    return created;
  });
  ctx.status = 201;
  ctx.body = {
    org_id: org.id,
    name: org.name,
    owner_user_id: userId,
    reachable_by_this_credential: false,
    note: `Created, owned by the human behind this credential. This credential cannot reach it: an agent key belongs to one organization ` +
      `and an OAuth grant to the organizations picked at consent. To work in it, the human creates an agent key on its connect-agent page ` +
      `(${ctx.deps.config.DASHBOARD_URL}) or re-runs the OAuth consent and picks it.`,
  };
}
