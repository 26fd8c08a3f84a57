// The MCP server of one HTTP request (stateless: a new server and transport per request, nothing kept per connection,
// so any number of API processes can answer). It uses the SDK's low-level Server because our schemas are JSON Schema
// (the ajv schemas of the REST API), which the low-level request handlers take as they are.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../context.js';
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
  'New app: svc_provision (idempotent; it activates the campaign unless the wallet is short, then next_tool names svc_get_wallet_topup_link), svc_get_join_link for creators, wire the SDK with the returned sdk_key,',
  'svc_test_integration (a synthetic sandbox purchase that proves the pipeline but completes no checklist step), then a real purchase in the app by a user with a creator code (a sandbox purchase is enough),',
  'then poll svc_integration_status until live.',
  "The checklist counts purchases that came through the app's real path (provider webhook, /sdk/purchase, direct purchase webhook) in any environment; stats, analytics and campaign health count production only.",
  'Next actions, and errors that point at another action, name the tool (next_tool) beside the REST call.',
  'Money writes, payouts, raw credentials, deletes and admin are denied to every agent: top-ups and credential uploads go through signed links for the human.',
  'The tool list is also the resource svc://tools; the wire contract is svc://contract.',
].join(' ');

export function createMcpServer(parent: AppContext, services: McpServices): Server {
  const server = new Server(
    { name: 'svc', title: 'svc attribution', version: VERSION },
    { capabilities: { tools: { listChanged: false }, resources: {} }, instructions: INSTRUCTIONS },
  );
  const { catalog, sdkResource } = services;
  const ctx = { baseUrl: parent.deps.config.BASE_URL };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...catalog.definitions] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(parent, catalog, request.params, extra));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...STATIC_RESOURCES] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resourceTemplates(sdkResource) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri, catalog, ctx, sdkResource));
  return server;
}
