// POST /api/agent/organizations: a new organization owned by the human behind the credential (actions/organizations.ts).
// An OAuth grant reaches it at once (the consent page says the grant covers the organizations the client creates;
// svc_provision creates them the same way); an agent key belongs to exactly one organization (agent_keys.org_id), so
// it cannot reach the new one: the answer says so and how to get a credential that can.
import { createAgentOrganization } from '../../actions/organizations.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { agentOf } from './principal.js';

export const createOrganizationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
} as const;

export async function createOrganizationHandler(ctx: AppContext): Promise<void> {
  const { name } = inputOf<{ name: string }>(ctx);
  const org = await createAgentOrganization(ctx.deps, { agent: agentOf(ctx), name });
  ctx.status = 201;
  ctx.body = {
    org_id: org.id,
    name: org.name,
    owner_user_id: org.ownerUserId,
    reachable_by_this_credential: org.reachable,
    note: org.reachable
      ? 'Created, owned by the human behind this credential, and added to this OAuth ' +
        'grant: this credential works in it now (name it as org_name, e.g. in svc_provision).'
      : `Created, owned by the human behind this credential. This credential cannot reach it: an agent key belongs to one organization. ` +
        `To work in it, the human creates an agent key on its connect-agent ` +
        `page (${ctx.deps.config.DASHBOARD_URL}) or connects the agent through OAuth.`,
  };
}
