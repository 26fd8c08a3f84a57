// GET /api/agent/openapi.json: OpenAPI 3.1 generated from the endpoint table and the same JSON Schemas that
// validate the requests, with both security schemes and each operation's scopes.
import { SCOPE_SENTENCES } from '../../lib/scopes.js';
import { deprecatedOperation } from './deprecation.js';
import { AGENT_ENDPOINTS, type AgentEndpoint } from './endpoints.js';
import { ANSWER_SCHEMAS, RESOURCE_INDEX } from './record-schemas.js';
import { resourceIndexQuery } from './resource-index.js';

const ERROR = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {},
    // An error that points at another action names it (api/agent/next-action.ts).
    next_tool: { type: 'string', description: 'The MCP tool of the action to take next' },
    call: { type: 'string', description: 'That action as a REST call, e.g. POST /api/agent/wallet/topup-link' },
  },
};
const json = (schema: unknown) => ({ 'application/json': { schema } });
/** Every path: a method it does not list is 405 `{"detail"}` naming the allowed ones, with an `Allow` header. */
const METHOD_NOT_ALLOWED = {
  description: 'Method not allowed on this path; the Allow header and detail list the allowed methods',
  headers: { Allow: { schema: { type: 'string' } } },
  content: json(ERROR),
};

export function openApiDocument(baseUrl: string, endpoints: readonly AgentEndpoint[] = AGENT_ENDPOINTS): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const query = (e.query ?? {}) as { properties?: Record<string, unknown>; required?: readonly string[] };
    const queryParams = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: (query.required ?? []).includes(name),
      schema,
    }));
    (paths[e.path] ??= {})[e.method] = {
      operationId: e.tool,
      summary: e.summary,
      ...(e.deprecated ? deprecatedOperation(e.deprecated, e.summary) : {}),
      'x-required-scopes': e.scopes,
      security: [{ agentKey: [] }, { oauth2: [...e.scopes] }],
      parameters: [...params, ...queryParams],
      ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: e.body } } } } : {}),
      responses: {
        200: { description: 'OK', content: json(ANSWER_SCHEMAS[e.tool] ?? { type: 'object' }) },
        401: { description: 'Missing, expired or revoked credential', content: { 'application/json': { schema: ERROR } } },
        403: {
          description: 'A required scope is missing (named in detail), or the action is denied to agents',
          content: { 'application/json': { schema: ERROR } },
        },
        404: { description: 'Not found, or in an organization not granted', content: { 'application/json': { schema: ERROR } } },
        405: METHOD_NOT_ALLOWED,
        422: { description: 'Invalid fields, listed in detail', content: { 'application/json': { schema: ERROR } } },
      },
    };
  }
  paths['/'] = {
    get: {
      operationId: 'resource_index',
      summary: "The tool server's resources (svc://tools, svc://contract, svc://sdk/{platform}); ?uri= reads one",
      'x-required-scopes': [],
      security: [{ agentKey: [] }, { oauth2: [] }],
      parameters: [{ name: 'uri', in: 'query', required: false, schema: resourceIndexQuery.properties.uri }],
      responses: {
        200: { description: 'OK', content: json(RESOURCE_INDEX) },
        401: { description: 'Missing or invalid credential', content: json(ERROR) },
        404: { description: 'No such resource', content: json(ERROR) },
        405: METHOD_NOT_ALLOWED,
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc agent API',
      version: '1.6.0',
      description:
        'Control plane for AI coding agents. Money writes, payouts, raw credentials, deletes and admin are denied to every agent.',
    },
    servers: [{ url: `${baseUrl}/api/agent` }],
    components: {
      securitySchemes: {
        agentKey: { type: 'http', scheme: 'bearer', description: 'Agent key it_mcp_..., scoped, revocable' },
        // The endpoints oidc-provider serves under /oauth (api/oauth/provider.tsx); metadata at the discovery URL.
        oauth2: {
          type: 'oauth2',
          description:
            `OAuth 2.1 (PKCE S256). Metadata: ${baseUrl}/.well-known/oauth-authorization-server; dynamic ` +
            `registration: ${baseUrl}/oauth/reg; revocation: ${baseUrl}/oauth/token/revocation. Access tokens live one hour; ` +
            `refresh tokens rotate.`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/auth`,
              tokenUrl: `${baseUrl}/oauth/token`,
              refreshUrl: `${baseUrl}/oauth/token`,
              scopes: { ...SCOPE_SENTENCES },
            },
          },
        },
      },
    },
    paths,
  };
}
