// RFC 6750 / RFC 9728 challenges on the agent surfaces (/mcp and /api/agent): a 401 says where the protected
// resource metadata is and which scopes exist; a missing scope (403) says `insufficient_scope` and names it, so a
// client can ask the user for more consent.
import { AppError, MissingScopeError } from '../../errors/http-errors.js';
import { SCOPES } from '../../lib/scopes.js';
import type { AppContext, Middleware } from '../context.js';

/** The path-suffixed metadata URL (RFC 9728 §3.1) of the surface a path belongs to. */
function resourceMetadataUrl(ctx: AppContext): string {
  const surface = ctx.path === '/mcp' || ctx.path.startsWith('/mcp/') ? '/mcp' : '/api/agent';
  return `${ctx.deps.config.BASE_URL}/.well-known/oauth-protected-resource${surface}`;
}

export function bearerChallenge(ctx: AppContext, insufficientScope?: string): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(ctx)}"`];
  if (insufficientScope)
    parts.unshift('error="insufficient_scope"', `error_description="This credential lacks the scope ${insufficientScope}"`);
  parts.push(`scope="${insufficientScope ?? SCOPES.join(' ')}"`);
  return `Bearer ${parts.join(', ')}`;
}

const isAgentSurface = (path: string): boolean =>
  path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/api/agent/') || path === '/api/agent';

/** Decorates 401 and missing-scope 403 answers of the agent surfaces with their WWW-Authenticate challenge. */
export const agentChallenge: Middleware = async (ctx, next) => {
  if (!isAgentSurface(ctx.path)) return next();
  try {
    await next();
  } catch (err) {
    if (err instanceof MissingScopeError) {
      throw new AppError(403, err.detail, { ...err.headers, 'WWW-Authenticate': bearerChallenge(ctx, err.scope) });
    }
    if (err instanceof AppError && err.status === 401)
      throw new AppError(401, err.detail, { ...err.headers, 'WWW-Authenticate': bearerChallenge(ctx) });
    throw err;
  }
};
