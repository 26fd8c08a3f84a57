// The tool list, derived from the agent endpoint table (api/agent/endpoints.ts): every tool of every row becomes one
// MCP tool whose input schema merges the path parameters with the row's query or body JSON Schema (the very schemas
// ajv validates the REST requests with), plus the registry's extra tools. Built once per process; the per-request
// servers (server.ts) only read it.
import type { JSONObject, Tool } from '@modelcontextprotocol/server';
import { AGENT_ENDPOINTS, endpointTools, type AgentEndpoint, type EndpointTool } from '../agent/endpoints.js';
import { appToolMeta } from './apps.js';
import { deprecationSentence } from '../agent/deprecation.js';
import type { ExtraTool } from './extra-tools.js';
import { describeTool, TOOL_DOCS } from './tool-docs.js';
import { toolEffects } from './tool-effects.js';

type JsonSchema = JSONObject;
interface ObjectSchema {
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  oneOf?: readonly { required?: readonly string[] }[];
}

/** Which tool arguments go where in the REST request. */
export interface ArgumentParts {
  path: readonly string[];
  query: readonly string[];
  body: readonly string[];
}

export interface EndpointToolEntry {
  kind: 'endpoint';
  definition: Tool;
  endpoint: AgentEndpoint;
  parts: ArgumentParts;
}
export interface ExtraToolEntry {
  kind: 'extra';
  definition: Tool;
  tool: ExtraTool;
}
export type ToolEntry = EndpointToolEntry | ExtraToolEntry;

export interface ToolCatalog {
  definitions: readonly Tool[];
  byName: ReadonlyMap<string, ToolEntry>;
}

/** `_meta` keys on each tool: the scopes its endpoint needs and the endpoint itself, so clients can see both. */
const META_SCOPES = 'svc/scopes';
const META_ENDPOINT = 'svc/endpoint';
/** A deprecated endpoint's tool: `{since, sunset, successor}` (docs/compatibility.md). */
const META_DEPRECATED = 'svc/deprecated';

/** The REST bodies carry no schema of their own: results are checked only as JSON objects. */
const REST_RESULT_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  description: 'The JSON body the agent REST endpoint answers.',
} as const;

const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** The body properties a tool takes and the ones it must send (for a `oneOf` body: the branch its fields cover). */
function bodyPart(body: ObjectSchema | undefined, tool: EndpointTool): { properties: Record<string, JsonSchema>; required: string[] } {
  if (!body) return { properties: {}, required: [] };
  const all = body.properties ?? {};
  const fields = tool.bodyFields ?? Object.keys(all);
  const properties = Object.fromEntries(fields.filter((f) => all[f]).map((f) => [f, all[f] as JsonSchema]));
  const branches = (body.oneOf ?? []).filter((b) => (b.required ?? []).every((r) => fields.includes(r)));
  const required = [...(body.required ?? []), ...branches.flatMap((b) => b.required ?? [])].filter((r) => fields.includes(r));
  return { properties, required: [...new Set(required)] };
}

function endpointEntry(endpoint: AgentEndpoint, tool: EndpointTool): EndpointToolEntry {
  const path = pathParamsOf(endpoint.path);
  const query = (endpoint.query ?? {}) as ObjectSchema;
  const body = bodyPart(endpoint.body, tool);
  const properties: Record<string, JsonSchema> = {};
  const add = (name: string, schema: JsonSchema) => {
    // One flat argument object: a name used twice would be ambiguous, so the table may never do that.
    if (properties[name]) throw new Error(`${tool.name}: argument '${name}' is both a path/query and a body field`);
    properties[name] = schema;
  };
  for (const p of path) add(p, { type: 'string', minLength: 1, description: `Path parameter {${p}}` });
  for (const [name, schema] of Object.entries(query.properties ?? {})) add(name, schema);
  for (const [name, schema] of Object.entries(body.properties)) add(name, schema);
  const required = [...path, ...(query.required ?? []), ...body.required];

  const doc = TOOL_DOCS[tool.name];
  const title = doc?.title ?? endpoint.summary;
  const definition: Tool = {
    name: tool.name,
    title,
    description: [endpoint.deprecated ? deprecationSentence(endpoint.deprecated) : '', doc ? describeTool(doc) : endpoint.summary]
      .filter(Boolean)
      .join(' '),
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    outputSchema: REST_RESULT_SCHEMA,
    annotations: { title, ...toolEffects(tool.name, endpoint.method) },
    _meta: {
      [META_SCOPES]: [...endpoint.scopes],
      [META_ENDPOINT]: `${endpoint.method.toUpperCase()} /api/agent${endpoint.path}`,
      ...(endpoint.deprecated ? { [META_DEPRECATED]: { ...endpoint.deprecated } } : {}),
      ...appToolMeta(tool.name),
    },
  };
  return {
    kind: 'endpoint',
    definition,
    endpoint,
    parts: { path, query: Object.keys(query.properties ?? {}), body: Object.keys(body.properties) },
  };
}

function extraEntry(tool: ExtraTool): ExtraToolEntry {
  const definition: Tool = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { ...tool.inputSchema, type: 'object' },
    outputSchema: { ...tool.outputSchema, type: 'object' },
    // Registry tools answer from static SDK knowledge: they read no account and change nothing.
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: { [META_SCOPES]: [] },
  };
  return { kind: 'extra', definition, tool };
}

/** Every served endpoint's tools, then the extra tools; a name used twice is a programming error. */
export function buildToolCatalog(
  extraTools: readonly ExtraTool[] = [],
  endpoints: readonly AgentEndpoint[] = AGENT_ENDPOINTS,
): ToolCatalog {
  const entries: ToolEntry[] = [];
  for (const endpoint of endpoints) {
    for (const tool of endpointTools(endpoint)) entries.push(endpointEntry(endpoint, tool));
  }
  entries.push(...extraTools.map(extraEntry));
  const byName = new Map<string, ToolEntry>();
  for (const entry of entries) {
    if (byName.has(entry.definition.name)) throw new Error(`Tool '${entry.definition.name}' is defined twice`);
    byName.set(entry.definition.name, entry);
  }
  return { definitions: entries.map((e) => e.definition), byName };
}
