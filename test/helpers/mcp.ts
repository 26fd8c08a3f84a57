// The official MCP SDK client against the running server over real HTTP, plus raw JSON-RPC posts for the checks that
// happen before the MCP layer (Origin, credentials, method, rate limit).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request, type JsonResponse } from './http.js';

export interface McpSession {
  client: Client;
  /** tools/call, counting the calls made through this session. */
  call(
    name: string,
    args?: Record<string, unknown>,
    onprogress?: (p: { progress: number; message?: string }) => void,
  ): Promise<CallToolResult>;
  calls: number;
  close(): Promise<void>;
}

export async function connectMcp(baseUrl: string, token: string, path = '/mcp'): Promise<McpSession> {
  const client = new Client({ name: 'svc-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const session: McpSession = {
    client,
    calls: 0,
    async call(name, args = {}, onprogress) {
      session.calls += 1;
      return (await client.callTool(
        { name, arguments: args },
        undefined,
        onprogress ? { onprogress, timeout: 60_000 } : { timeout: 60_000 },
      )) as CallToolResult;
    },
    close: () => client.close(),
  };
  return session;
}

/** The structured content of a successful call (fails loudly on a tool error, with its text). */
export function ok<T = any>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

export const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** One raw JSON-RPC POST to /mcp, as a non-SDK client would send it. */
export function postMcp(
  baseUrl: string,
  message: unknown,
  opts: { token?: string; headers?: Record<string, string>; path?: string } = {},
): Promise<JsonResponse> {
  return request(baseUrl, 'POST', opts.path ?? '/mcp', {
    token: opts.token,
    body: message,
    headers: { accept: 'application/json, text/event-stream', ...opts.headers },
  });
}

export const initializeMessage = (id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

export const toolCallMessage = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A JSON resource read through the client, parsed. */
export async function readJsonResource(client: Client, uri: string): Promise<any> {
  const [content] = (await client.readResource({ uri })).contents;
  if (!content || !('text' in content)) throw new Error(`${uri}: no text content`);
  return JSON.parse(content.text);
}

/** The 2026-07-28 revision: no `initialize`; every request carries its envelope in `_meta` and mirrors routing headers. */
export const MODERN_VERSION = '2026-07-28';

export const modernMessage = (id: number, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
      ...meta,
    },
  },
});

/** The headers a 2026-07-28 client sends with `message`: MCP-Protocol-Version, Mcp-Method and (tools/call, resources/read) Mcp-Name. */
export function modernHeaders(message: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const name = message.params?.name ?? message.params?.uri;
  return {
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': message.method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
}

/** One raw 2026-07-28 POST (headers derived from the message; `headers` overrides them, e.g. to send a bad one). */
export function postModern(
  baseUrl: string,
  message: ReturnType<typeof modernMessage>,
  opts: { token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  return postMcp(baseUrl, message, { token: opts.token, headers: { ...modernHeaders(message), ...opts.headers } });
}

/** The JSON-RPC messages of an answer: the one JSON document, or each `data:` of an SSE stream. */
export function messagesOf(res: JsonResponse): any[] {
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return res.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
  }
  return [res.body];
}

export type McpEra = '2025-11-25' | typeof MODERN_VERSION;
export const MCP_ERAS: readonly McpEra[] = ['2025-11-25', MODERN_VERSION];

/** One tools/call in `era`, raw (the 2025 form needs no initialize here; the 2026 envelope): the call's result. */
export async function callToolInEra(baseUrl: string, era: McpEra, token: string, name: string, args: Record<string, unknown>) {
  const params = { name, arguments: args };
  const res =
    era === MODERN_VERSION
      ? await postModern(baseUrl, modernMessage(7, 'tools/call', params), { token })
      : await postMcp(
          baseUrl,
          { jsonrpc: '2.0', id: 7, method: 'tools/call', params },
          { token, headers: { 'mcp-protocol-version': era } },
        );
  if (res.status !== 200) throw new Error(res.text);
  return messagesOf(res).at(-1).result as { isError?: boolean; structuredContent: Record<string, any>; content: { text: string }[] };
}
