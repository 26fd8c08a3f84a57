// The MCP server of one HTTP request (stateless: a new server per request, nothing kept per connection, so any number
// of API processes can answer). It is the official SDK's low-level Server (v2, @modelcontextprotocol/server), which
// serves both protocol eras: the same handlers answer a 2025-11-25 client and a 2026-07-28 one. It is low-level because
// our schemas are JSON Schema (the ajv schemas of the REST API), which its request handlers take as they are, and
// because arguments are validated by the REST chain, never by the SDK (api/mcp/call-tool.ts).
import { readFileSync } from 'node:fs';
import { Server, type CacheHint, type ServerOptions } from '@modelcontextprotocol/server';
import type { AppContext } from '../context.js';
import { APPS_EXTENSION } from './apps.js';
import { callTool } from './call-tool.js';
import type { ExtraTool } from './extra-tools.js';
import { readResource, resourceTemplates, STATIC_RESOURCES, type SdkResourceReader } from './resources.js';
import type { ToolCatalog } from './tool-catalog.js';

export interface McpServices {
  catalog: ToolCatalog;
  sdkResource?: SdkResourceReader;
}

/** Seams for the SDK registry (another branch): tools without an account endpoint and the svc://sdk/{platform} reader. */
export interface McpOptions {
  extraTools?: readonly ExtraTool[];
  sdkResource?: SdkResourceReader;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const INSTRUCTIONS = [
  'Referral and affiliate attribution for mobile apps. Start with svc_doctor (no scope needed).',
  'New app: svc_provision (idempotent; it activates the campaign unless the wallet is short, then next_tool ' +
    'names svc_get_wallet_topup_link), svc_get_join_link for creators, wire the SDK with the returned sdk_key,',
  'svc_test_integration (a synthetic sandbox purchase that proves the pipeline but completes no ' +
    'checklist step), then a real purchase in the app by a user with a creator code (a sandbox purchase is enough),',
  'then poll svc_integration_status until live.',
  "The checklist counts purchases that came through the app's real path (provider webhook, /sdk/purchase, " +
    'direct purchase webhook) in any environment; stats, analytics and campaign health count production only.',
  'Next actions, and errors that point at another action, name the tool (next_tool) beside the REST call.',
  'Money writes, payouts, raw credentials, deletes and admin are denied to ' +
    'every agent: top-ups and credential uploads go through signed links for the human.',
  'The tool list is also the resource svc://tools; the wire contract is svc://contract.',
].join(' ');

/**
 * Caching hints of the 2026-07-28 revision (SEP-2549; the 2025 era never carries them). Every list and every resource
 * here is the same for every principal: tools/list is the whole catalog (scopes decide at call time, never what is
 * listed) and the resources are the catalog, the contract, the SDK guides and the MCP App pages. So a shared cache
 * may keep them ('public'). Five minutes: a deploy may change the tool list, and a client sees it within that time.
 * The day a list depends on the caller (say, tools filtered by scope), its scope must become 'private'; the tests
 * compare the lists of two principals with different scopes.
 */
const SHARED: CacheHint = { ttlMs: 300_000, cacheScope: 'public' };
const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'server/discover': SHARED,
  'tools/list': SHARED,
  'resources/list': SHARED,
  'resources/templates/list': SHARED,
  'resources/read': SHARED,
};

export function createMcpServer(parent: AppContext, services: McpServices): Server {
  const server = new Server(
    { name: 'svc', title: 'svc attribution', version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: {}, extensions: APPS_EXTENSION },
      instructions: INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
    },
  );
  const { catalog, sdkResource } = services;
  const ctx = { baseUrl: parent.deps.config.BASE_URL };
  server.setRequestHandler('tools/list', () => ({ tools: [...catalog.definitions] }));
  server.setRequestHandler('tools/call', async (request, extra) => {
    const result = await callTool(parent, catalog, request.params, extra);
    // The SDK's one projection of a tool result onto the request's era (the TextContent rule of SEP-2106).
    return server.projectCallToolResult(result, catalog.byName.get(request.params.name)?.definition.outputSchema);
  });
  server.setRequestHandler('resources/list', () => ({ resources: [...STATIC_RESOURCES] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: resourceTemplates(sdkResource) }));
  server.setRequestHandler('resources/read', (request) => readResource(request.params.uri, catalog, ctx, sdkResource));
  return server;
}
