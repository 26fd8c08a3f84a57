// What an agent should call next, named twice: the tool (`next_tool`) and its REST call (`call`, e.g.
// `POST /api/agent/campaigns/cmp_1/status`), both read from the endpoint table (api/agent/endpoints.ts), so a next
// action can never name a tool and a path that disagree. Next actions (integration-status), answers that leave work
// open (provision with the campaign in draft) and errors that point at another action (AppError.pointingAt) use it.
// The table imports every handler, so handlers cannot import it back (an import circle): the table registers its
// rows here when it loads instead, which is before any handler can run.
import type { NextCall } from '../../errors/http-errors.js';

/** The part of an endpoint row a next action needs (structural, so this module imports nothing of the table). */
export interface EndpointRoute {
  method: string;
  path: string;
  tool: string;
  tools?: readonly { name: string }[];
}

const AGENT_PREFIX = '/api/agent';
let byTool: ReadonlyMap<string, EndpointRoute> | undefined;

/** Called once by api/agent/endpoints.ts with its table. */
export function registerEndpointRoutes(rows: readonly EndpointRoute[]): void {
  byTool = new Map(rows.flatMap((r) => [r.tool, ...(r.tools ?? []).map((t) => t.name)].map((name) => [name, r] as const)));
}

/** The tool and its REST call; path parameters given are filled in, the others stay as `{name}`. */
export function nextAction(tool: string, params: Readonly<Record<string, string>> = {}): NextCall {
  const row = byTool?.get(tool);
  if (!row) throw new Error(`No agent endpoint serves the tool ${tool}`);
  const path = row.path.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  return { next_tool: tool, call: `${row.method.toUpperCase()} ${AGENT_PREFIX}${path}` };
}
