// GET /api/agent (spec: "Also at {base_url}/api/agent: tool-server resources"): the tool server's resources, the
// same list MCP's resources/list and resources/templates/list answer (the template with the URIs it can read), and
// with `?uri=` one resource's JSON exactly as resources/read gives it, for agents that speak only REST. Agent
// credentials only, like the tool server that serves the same documents.
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { sdkResourceUris } from '../../sdk-registry/tools.js';
import { NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { readSdkResource, registryTools } from '../mcp/registry.js';
import { readResource, resourceTemplates, STATIC_RESOURCES } from '../mcp/resources.js';
import { buildToolCatalog, type ToolCatalog } from '../mcp/tool-catalog.js';

export const resourceIndexQuery = {
  type: 'object',
  properties: {
    uri: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Read this resource (svc://tools, svc://contract, svc://sdk/{platform}, or an MCP App page ui://svc/…)',
    },
  },
} as const;

let catalog: ToolCatalog | undefined;

export function resourceIndexHandler(ctx: AppContext): void {
  const baseUrl = ctx.deps.config.BASE_URL;
  const { uri } = inputOf<{ uri?: string }>(ctx);
  if (uri) {
    catalog ??= buildToolCatalog(registryTools);
    try {
      const [content] = readResource(uri, catalog, { baseUrl }, readSdkResource).contents;
      const { text, mimeType } = content as { text: string; mimeType?: string };
      // The svc:// documents are JSON; the MCP App pages (ui://) are HTML and are served as they are.
      if (mimeType === undefined || mimeType === 'application/json') ctx.body = JSON.parse(text) as unknown;
      else {
        ctx.type = mimeType;
        ctx.body = text;
      }
    } catch (err) {
      if (err instanceof ResourceNotFoundError) throw new NotFoundError(`No resource ${uri}: see GET /api/agent for the list.`);
      throw err;
    }
    return;
  }
  ctx.body = {
    tool_server: `${baseUrl}/mcp`,
    openapi: `${baseUrl}/api/agent/openapi.json`,
    read: 'resources/read on the tool server, or GET /api/agent?uri=<uri> here (same document)',
    resources: STATIC_RESOURCES,
    resource_templates: resourceTemplates(readSdkResource).map((t) => ({ ...t, uris: sdkResourceUris() })),
  };
}
