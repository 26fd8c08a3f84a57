// Turns what the REST endpoint answered into a tool result. Success: the JSON body as structured content plus a text
// copy (clients without structured content read the text). Failure: a tool error (isError, so the model can read it
// and correct itself) whose text says what to do and whose structured content keeps the REST status and `detail`.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { MissingScopeError, type FieldProblem, type NextCall } from '../../errors/http-errors.js';
import { nextAction } from '../agent/next-action.js';
import type { EndpointOutcome } from './endpoint-dispatch.js';

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  422: 'validation_error',
  429: 'rate_limited',
  503: 'unavailable',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function successResult(body: unknown): CallToolResult {
  // A JSON round trip gives exactly what REST serialises (dates as ISO text, no undefined).
  const json: unknown = JSON.parse(JSON.stringify(body ?? {}));
  const structured = isObject(json) ? json : { result: json };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function errorResult(text: string, error: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error } };
}

/** Field problems as one line each, in the REST 422 shape (`body.email: must match format "email"`). */
export function fieldsResult(fields: readonly FieldProblem[], next?: NextCall): CallToolResult {
  const lines = fields.map((f) => `${f.loc.join('.')}: ${f.msg} (${f.type})`);
  return errorResult(`Invalid arguments (422):\n${lines.join('\n')}${asTool(next)}`, {
    status: 422,
    code: CODES[422],
    detail: fields,
    ...next,
  });
}

/** The next action a REST error body names (`next_tool` and `call`, api/agent/next-action.ts), if any. */
function nextOf(body: unknown): NextCall | undefined {
  if (!isObject(body) || typeof body.next_tool !== 'string' || typeof body.call !== 'string') return undefined;
  return { next_tool: body.next_tool, call: body.call };
}

const asTool = (next: NextCall | undefined) => (next ? ` (As a tool: call ${next.next_tool}.)` : '');

export function outcomeResult(outcome: EndpointOutcome): CallToolResult {
  const { status, body, error } = outcome;
  if (status >= 200 && status < 300) return successResult(body);
  const detail = isObject(body) ? body.detail : body;
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  const code = CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
  const next = nextOf(body);
  if (status === 422 && Array.isArray(detail)) return fieldsResult(detail as FieldProblem[], next);
  if (error instanceof MissingScopeError) {
    return errorResult(
      `Missing scope '${error.scope}': ${text} Ask the human for an agent key or consent that includes '${error.scope}'.`,
      { status, code: 'missing_scope', scope: error.scope, detail },
    );
  }
  if (status === 404) return errorResult(`Not found: ${text}`, { status, code, detail });
  if (status === 402) {
    // Every refusal for funds is resolved the same way, also one whose REST body names no next action.
    const topUp = next ?? nextAction('svc_get_wallet_topup_link');
    return errorResult(`Payment required: ${text} (As a tool: call ${topUp.next_tool} and give the link to the human, then retry.)`, {
      status,
      code,
      detail,
      ...topUp,
    });
  }
  const requestId = isObject(body) ? body.request_id : undefined;
  return errorResult(`${status} ${code}: ${text}${asTool(next)}`, {
    status,
    code,
    detail,
    ...next,
    ...(requestId ? { request_id: requestId } : {}),
  });
}
