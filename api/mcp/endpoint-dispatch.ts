// Runs one account tool call through its agent REST endpoint: the app creates a Koa context for a synthetic request
// (same principal, request id and client IP as the /mcp request) and the endpoint's own middleware chain runs on it
// (scope guards, query/body validation, audit, handler: api/agent/routes.ts endpointChain). Errors are answered by
// the same error mapper as REST (api/middleware/errors.ts), so a tool sees exactly the status and body REST gives.
// Nothing is written to the synthetic response: the caller reads ctx.status and ctx.body.
import compose from 'koa-compose';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ValidationError, type FieldProblem } from '../../errors/http-errors.js';
import { endpointChain } from '../agent/routes.js';
import type { AppContext, ProgressListener } from '../context.js';
import { finishUnanswered, respondWithError } from '../middleware/errors.js';
import { requestLog } from '../middleware/request-context.js';
import type { EndpointToolEntry } from './tool-catalog.js';

export interface EndpointCall {
  /** The /mcp request: the call inherits its app, principal, request id and client IP. */
  parent: AppContext;
  entry: EndpointToolEntry;
  args: Record<string, unknown>;
  progress?: ProgressListener;
}

export interface EndpointOutcome {
  status: number;
  /** What REST would answer: the handler's body, or `{detail}` for an error. */
  body: unknown;
  /** The error thrown, when there was one (for details REST keeps in the class, like the missing scope). */
  error?: unknown;
}

type Chain = (ctx: AppContext) => Promise<unknown>;
const chains = new WeakMap<EndpointToolEntry, Chain>();

function chainOf(entry: EndpointToolEntry): Chain {
  let chain = chains.get(entry);
  if (!chain) {
    chain = compose(endpointChain(entry.endpoint));
    chains.set(entry, chain);
  }
  return chain;
}

interface SplitArgs {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
  problems: FieldProblem[];
}

/** Sorts the flat tool arguments into path, query and body; unknown or malformed path arguments are field problems. */
function splitArgs(entry: EndpointToolEntry, args: Record<string, unknown>): SplitArgs {
  const { parts, endpoint } = entry;
  const params: Record<string, string> = {};
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const name of parts.path) {
    const value = args[name];
    if (value === undefined) problems.push({ loc: ['path', name], msg: 'Field required', type: 'missing' });
    else if (typeof value !== 'string' || value.length === 0)
      problems.push({ loc: ['path', name], msg: 'must be a non-empty string', type: 'type' });
    else params[name] = value;
  }
  for (const [name, value] of Object.entries(args)) {
    if (parts.path.includes(name)) continue;
    // The query goes through the URL, as in REST: the query validator coerces the text back to the schema's types.
    if (parts.query.includes(name)) query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    else if (parts.body.includes(name)) body[name] = value;
    else problems.push({ loc: ['arguments', name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
  }
  // Rows with a body always get an object, so missing required fields are listed one by one.
  return { params, query, body: endpoint.body ? body : undefined, problems };
}

function syntheticContext(parent: AppContext, method: string, url: string): AppContext {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = url;
  req.headers = {
    host: parent.get('host'),
    'user-agent': parent.get('user-agent'),
    accept: 'application/json',
    'content-type': 'application/json',
  };
  return parent.app.createContext(req, new ServerResponse(req)) as unknown as AppContext;
}

export async function dispatchEndpoint(call: EndpointCall): Promise<EndpointOutcome> {
  const { parent, entry } = call;
  const { params, query, body, problems } = splitArgs(entry, call.args);
  const path = entry.endpoint.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(params[p] ?? ''));
  const search = query.toString();
  const ctx = syntheticContext(parent, entry.endpoint.method.toUpperCase(), `/api/agent${path}${search ? `?${search}` : ''}`);
  Object.assign(ctx.state, {
    requestId: parent.state.requestId,
    clientIp: parent.state.clientIp,
    principal: parent.state.principal,
    credentialPresented: true,
    body,
    progress: call.progress,
  });
  (ctx as AppContext & { params: Record<string, string> }).params = params;
  try {
    if (problems.length > 0) throw new ValidationError(problems);
    await chainOf(entry)(ctx);
    finishUnanswered(ctx);
    return { status: ctx.status, body: ctx.body };
  } catch (err) {
    respondWithError(ctx, err, () => requestLog(ctx));
    return { status: ctx.status, body: ctx.body, error: err };
  }
}
