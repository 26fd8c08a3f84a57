// `{base_url}/mcp`: the tool server over Streamable HTTP, mounted in Koa. In order: Origin (403), method (only POST:
// 405 for GET and DELETE, as both protocol eras' stateless servers answer; a browser gets a page saying what this is),
// the agent credential (401 + WWW-Authenticate), the tool-call rate limit (429), then the official SDK (v2) serves the
// message with a new MCP server for this one request. All of that is the same for both protocol eras; only the last
// step differs:
// * 2025-11-25 and before (`initialize`, no `_meta` envelope): the SDK's Node transport in stateless mode
//   (`sessionIdGenerator: undefined`), answering one JSON document, or an SSE stream when the client asked for
//   progress (as before the v2 SDK);
// * 2026-07-28 (version, client info and capabilities in each request's `_meta`, `Mcp-Method` / `Mcp-Name` headers):
//   the SDK's `createMcpHandler`, which checks the headers against the body, answers `server/discover`, adds the
//   caching hints and streams progress on the POST's response.
// The era is decided by the SDK's own `isLegacyRequest` (the classification `createMcpHandler` itself runs). There is
// no Koa adapter: Koa hands the raw Node request, its response and the JSON body (already read by
// api/middleware/json-body.ts) to the SDK's Node layer (@modelcontextprotocol/node) and leaves the response to it.
// Nothing outlives the request, so any number of API processes can serve /mcp.
import { Router } from '@koa/router';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { AppContext, Middleware, RequestState } from '../context.js';
import { requestLog } from '../middleware/request-context.js';
import { sendPage } from '../send-page.js';
import { requireAgent } from './auth.js';
import { checkOrigin } from './origin.js';
import { limitToolCalls } from './rate-limit.js';
import { createMcpServer, type McpOptions, type McpServices } from './server.js';
import { buildToolCatalog } from './tool-catalog.js';

const MCP_PATH = '/mcp';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

const onlyPost: Middleware = async (ctx, next) => {
  if (ctx.method === 'POST') return next();
  // Stateless: there is no session to resume or end and no server-initiated stream to open.
  ctx.set('Allow', 'POST, OPTIONS');
  // A person who opened the start banner's link in a browser gets told what this address is for; clients get JSON-RPC.
  if (ctx.method === 'GET' && ctx.accepts('json', 'text/event-stream', 'html') === 'html') {
    sendPage(ctx, 405, {
      title: 'MCP tool server',
      lang: 'en',
      body: (
        <>
          <h1>MCP tool server</h1>
          <p>
            This address is the tool server for AI coding agents (Model Context Protocol over Streamable HTTP): an MCP client POSTs JSON-RPC
            messages here with an agent key or OAuth token. A browser has nothing to show.
          </p>
          <p>
            To connect an agent, sign in to the <a href="/dashboard/agents">dashboard</a> and follow "Connect an agent".
          </p>
        </>
      ),
    });
    return;
  }
  ctx.status = 405;
  ctx.body = jsonRpcError(-32000, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp.');
};

/** Progress notifications need a stream; everything else is answered as one JSON document (cheaper, proxy-friendly). */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) => (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined,
  );
}

async function serveLegacy(ctx: AppContext, services: McpServices, body: unknown): Promise<void> {
  const server = createMcpServer(ctx, services);
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksForProgress(body) });
  ctx.res.on('close', () => {
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, body);
}

async function serveModern(ctx: AppContext, services: McpServices, body: unknown): Promise<void> {
  // A handler per request, so that its server factory closes over this request (principal, request id, client IP).
  const handler = createMcpHandler(() => createMcpServer(ctx, services), {
    legacy: 'reject',
    // Rejections (a header that does not match the body, an unsupported version) are the client's; the SDK answers them.
    onerror: (err) => requestLog(ctx).info({ err: err.message }, 'mcp request rejected or failed'),
  });
  await toNodeHandler(handler)(ctx.req, ctx.res, body);
}

function serve(services: McpServices): Middleware {
  return async (ctx) => {
    const body = ctx.state.body;
    if (body === undefined) {
      ctx.status = 400;
      ctx.body = jsonRpcError(-32700, 'Parse error: the request carries no JSON-RPC message.');
      return;
    }
    ctx.respond = false;
    try {
      if (await isLegacyRequest(await toWebRequest(ctx.req, body), body)) await serveLegacy(ctx, services, body);
      else await serveModern(ctx, services, body);
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
