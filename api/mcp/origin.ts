// Origin validation for /mcp (MCP transports: servers MUST validate Origin against DNS rebinding). A request without
// Origin is a non-browser client (SDKs, CLIs, agents) and passes; a browser request passes only from
// * the origin of BASE_URL (the service's own pages), or
// * a loopback origin: http(s)://localhost, 127.0.0.0/8 or [::1], any port (local dev tools such as the MCP
//   Inspector). Such a page runs on the user's own machine, and it still needs a bearer credential: /mcp never
//   accepts the dashboard session cookie, so a page cannot ride on a signed-in browser.
// Anything else, `Origin: null` included, is 403 before authentication. Allowed browser origins also get CORS headers
// and preflight answers, so a browser-based client can read the responses.
import { ForbiddenError } from '../../errors/http-errors.js';
import type { AppContext, Middleware } from '../context.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

export function isAllowedOrigin(origin: string, baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === new URL(baseUrl).origin) return true;
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  return loopback && (url.protocol === 'http:' || url.protocol === 'https:');
}

const CORS_HEADERS = {
  'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};

function allowBrowser(ctx: AppContext, origin: string): void {
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate, Retry-After');
  ctx.vary('Origin');
}

export const checkOrigin: Middleware = async (ctx, next) => {
  const origin = ctx.get('origin');
  if (origin) {
    if (!isAllowedOrigin(origin, ctx.deps.config.BASE_URL)) {
      throw new ForbiddenError(
        `Origin '${origin}' is not allowed on /mcp: ` +
          `only ${new URL(ctx.deps.config.BASE_URL).origin} and loopback origins may call it from a browser.`,
      );
    }
    allowBrowser(ctx, origin);
  }
  if (ctx.method === 'OPTIONS') {
    ctx.set(CORS_HEADERS);
    ctx.status = 204;
    return;
  }
  return next();
};
