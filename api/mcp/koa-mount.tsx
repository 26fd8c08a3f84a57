// `{base_url}/mcp`: the tool server over Streamable HTTP, mounted in Koa. In order: Origin (403), method (only POST:
// 405 for GET and DELETE as in the SDK's stateless examples; a browser gets a page saying what this is), the agent
// credential (401 + WWW-Authenticate), the tool-call rate limit (429), then a new MCP server and transport for this
// one request (SDK stateless mode: `sessionIdGenerator: undefined`). Nothing outlives the request, so any number of
// API processes can serve /mcp and a sessionless protocol revision needs no change here. The JSON body was already
// read by api/middleware/json-body.ts and is handed to the transport parsed.
import { Router } from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { requestLog } from '../middleware/request-context.js';
import { sendPage } from '../send-page.js';
import { requireAgent } from './auth.js';
import { checkOrigin } from './origin.js';
import { limitToolCalls } from './rate-limit.js';
import { createMcpServer, type McpOptions, type McpServices } from './server.js';
import { buildToolCatalog } from './tool-catalog.js';

export const MCP_PATH = '/mcp';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

const onlyPost: Middleware = async (ctx, next) => {
  if (ctx.method === 'POST') return next();
  // Stateless: there is no session to resume or end and no server-initiated stream to open.
  ctx.set('Allow', 'POST, OPTIONS');
  // A person who opened the start banner's link in a browser gets told what this address is for; clients get JSON-RPC.
  if (ctx.method === 'GET' && ctx.accepts('json', 'text/event-stream', 'html') === 'html') {
    sendPage(ctx, 405, { title: 'MCP tool server', lang: 'en', body: <>
      <h1>MCP tool server</h1>
      <p>This address is the tool server for AI coding agents (Model Context Protocol over Streamable HTTP): an MCP client
        POSTs JSON-RPC messages here with an agent key or OAuth token. A browser has nothing to show.</p>
      <p>To connect an agent, sign in to the <a href="/dashboard/agents">dashboard</a> and follow "Connect an agent".</p>
    </> });
    return;
  }
  ctx.status = 405;
  ctx.body = jsonRpcError(-32000, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp.');
};

/** Progress notifications need a stream; everything else is answered as one JSON document (cheaper, proxy-friendly). */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined);
}

function serve(services: McpServices): Middleware {
  return async (ctx) => {
    const body = ctx.state.body;
    if (body === undefined) {
      ctx.status = 400;
      ctx.body = jsonRpcError(-32700, 'Parse error: the request carries no JSON-RPC message.');
      return;
    }
    const server = createMcpServer(ctx, services);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(body) });
    ctx.respond = false;
    ctx.res.on('close', () => { void server.close(); });
    try {
      await server.connect(transport);
      await transport.handleRequest(ctx.req, ctx.res, body);
    } catch (err) {
      // Before the transport wrote anything the edge still answers (a logged 500); after, only the socket can end.
      if (!ctx.res.headersSent) {
        ctx.respond = true;
        throw err;
      }
      requestLog(ctx).error({ err }, 'mcp transport failed mid-response');
      ctx.res.destroy();
    }
  };
}

/** `path` exists for tests that mount a second server with their own options next to the real one. */
export function mcpRoutes(options: McpOptions & { path?: string } = {}): Router<RequestState, AppContext> {
  const services: McpServices = { catalog: buildToolCatalog(options.extraTools), sdkResource: options.sdkResource };
  const router = new Router<RequestState, AppContext>();
  router.all(options.path ?? MCP_PATH, checkOrigin, onlyPost, requireAgent, limitToolCalls, serve(services));
  return router;
}
