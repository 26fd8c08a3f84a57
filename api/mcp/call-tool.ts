// tools/call: finds the tool, runs it (an account tool through its REST endpoint, an extra tool through the
// registry's run) and returns the tool result. An unknown tool is a protocol error (the client named something that
// was never listed); everything about the call itself, bad arguments included, is a tool error the model can read.
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AppContext } from '../context.js';
import { requestLog } from '../middleware/request-context.js';
import { dispatchEndpoint, type EndpointOutcome } from './endpoint-dispatch.js';
import { fieldProblemsOf, type ExtraTool } from './extra-tools.js';
import { progressReport } from './progress.js';
import type { ToolCatalog } from './tool-catalog.js';
import { fieldsResult, outcomeResult, successResult } from './tool-result.js';

export async function callTool(
  parent: AppContext,
  catalog: ToolCatalog,
  params: CallToolRequest['params'],
  extra: ServerContext,
): Promise<CallToolResult> {
  const entry = catalog.byName.get(params.name);
  if (!entry)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown tool: ${params.name}. The tools are listed by tools/list and in the resource svc://tools.`,
    );
  const args = params.arguments ?? {};
  if (entry.kind === 'extra') return runExtraTool(parent, entry.tool, args);

  // Progress goes on the POST's own response stream, in both eras (the transport upgrades the answer to SSE).
  const token = extra.mcpReq._meta?.progressToken;
  const report =
    token === undefined
      ? undefined
      : progressReport(
          (progress, message) =>
            extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, message } }),
          parent.deps.temporal,
        );
  const outcome = await dispatchEndpoint({ parent, entry, args, progress: report?.listener });
  await report?.finish(doneMessage(outcome));
  return outcomeResult(outcome);
}

function doneMessage({ status, body }: EndpointOutcome): string {
  const workflowId = (body as { workflow_id?: unknown } | undefined)?.workflow_id;
  const what = status < 300 ? 'done' : `failed with ${status}`;
  return typeof workflowId === 'string' ? `${what}: workflow ${workflowId}` : what;
}

async function runExtraTool(parent: AppContext, tool: ExtraTool, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return successResult(await Promise.resolve(tool.run(args, { baseUrl: parent.deps.config.BASE_URL })));
  } catch (err) {
    const fields = fieldProblemsOf(err);
    if (fields) return fieldsResult(fields);
    requestLog(parent).error({ err, tool: tool.name }, 'extra tool failed');
    return outcomeResult({ status: 500, body: { detail: 'Internal server error', request_id: parent.state.requestId } });
  }
}
