// The agent REST API, built from the endpoint table (api/agent/endpoints.ts): each route gets the same guard
// (agent principal, its scopes, tenancy in the handlers), validation, and an audit entry when it changes anything.
import { Router } from '@koa/router';
import { guard } from '../auth/guard.js';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { audited, type AuditActor } from '../middleware/audit.js';
import { validateBody, validateQuery } from '../middleware/validate.js';
import { announceDeprecation } from './deprecation.js';
import { AGENT_ENDPOINTS, type AgentEndpoint } from './endpoints.js';
import { openApiDocument } from './openapi.js';
import { agentOf } from './principal.js';
import { resourceIndexHandler, resourceIndexQuery } from './resource-index.js';

/** `/apps/{app_id}` -> `/apps/:app_id` */
export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function scopeGuards(endpoint: AgentEndpoint): Middleware[] {
  return endpoint.scopes.length === 0 ? [guard({ allow: ['agent'] })] : endpoint.scopes.map((scope) => guard({ allow: ['agent'], scope }));
}

/** Every successful mutating call is written to the audit log with the agent as the actor. */
const agentActor =
  (endpoint: AgentEndpoint) =>
  (ctx: AppContext): AuditActor => {
    const agent = agentOf(ctx);
    return { orgId: agent.orgIds[0] ?? null, actorType: agent.authMode, actorId: agent.id, action: endpoint.tool };
  };

/**
 * What runs for one endpoint, in order: a deprecated endpoint's headers, scope guards, query or body validation, the
 * audit entry, the handler. The router mounts it and the tool server (api/mcp) runs the same chain for a tool call,
 * so the two cannot disagree.
 */
export function endpointChain(endpoint: AgentEndpoint): Middleware[] {
  const chain: Middleware[] = [...(endpoint.deprecated ? [announceDeprecation(endpoint.deprecated)] : []), ...scopeGuards(endpoint)];
  if (endpoint.query) chain.push(validateQuery(endpoint.query));
  if (endpoint.body) chain.push(validateBody(endpoint.body));
  chain.push(audited(endpoint.method, endpoint.path, agentActor(endpoint)), endpoint.handler);
  return chain;
}

export function agentRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>({ prefix: '/api/agent' });
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument(ctx.deps.config.BASE_URL);
  });
  router.get('/', guard({ allow: ['agent'] }), validateQuery(resourceIndexQuery), resourceIndexHandler);
  for (const endpoint of AGENT_ENDPOINTS) router[endpoint.method](endpoint.tool, koaPath(endpoint.path), ...endpointChain(endpoint));
  return router;
}
