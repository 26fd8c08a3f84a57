// Spec "Limits": 240 tool calls per minute, then 429. A stateless server has no protocol session to count on, so the
// window belongs to the principal (the agent key; for OAuth the grant and client), shared by every API process
// through the app's rate counter (Redis with REDIS_URL: runtime/rate-counter.ts). Only tools/call messages count
// (listing tools or reading resources is free); a JSON-RPC batch counts each call in it. The answer is plain HTTP,
// before the MCP layer: the same 429 page with Retry-After as every other limit.
import type { AgentPrincipal } from '../../lib/principal.js';
import { RateLimitedError } from '../../errors/http-errors.js';
import type { Middleware } from '../context.js';

const WINDOW_MS = 60_000;

/** The rate-limit identity of an agent principal: one window per key, or per OAuth grant and client. */
export const toolCallKey = (agent: AgentPrincipal): string =>
  `mcp-tools:${agent.authMode}:${agent.id}${agent.clientId ? `:${agent.clientId}` : ''}`;

export function countToolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => (m as { method?: unknown } | null)?.method === 'tools/call').length;
}

/** Runs after requireAgent (the principal is an agent). */
export const limitToolCalls: Middleware = async (ctx, next) => {
  const calls = countToolCalls(ctx.state.body);
  const principal = ctx.state.principal;
  if (calls > 0 && principal?.kind === 'agent') {
    const limit = ctx.deps.config.MCP_TOOL_CALLS_PER_MINUTE;
    for (let i = 0; i < calls; i += 1) {
      if (!(await ctx.rateCounter.tryHit(toolCallKey(principal), limit, WINDOW_MS))) throw new RateLimitedError(WINDOW_MS / 1000);
    }
  }
  return next();
};
