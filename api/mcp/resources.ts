// The tool server's resources: `svc://tools` (the live tool list, the same objects tools/list answers),
// `svc://contract` (contract.ts), the MCP App pages `ui://svc/*` (apps.ts) and, once the SDK registry provides a
// reader, the template `svc://sdk/{platform}`.
// The template is listed only when a reader is given: a template that can never be read would mislead the agent.
import { ResourceNotFoundError, type ReadResourceResult, type Resource, type ResourceTemplateType } from '@modelcontextprotocol/server';
import { APP_RESOURCES, readAppResource } from './apps.js';
import { contractDocument } from './contract.js';
import type { ExtraToolContext } from './extra-tools.js';
import type { ToolCatalog } from './tool-catalog.js';

/** The SDK registry's per-platform guide (JSON), or undefined for an unknown platform. */
export type SdkResourceReader = (platform: string, ctx: ExtraToolContext) => Record<string, unknown> | undefined;

const JSON_TYPE = 'application/json';
const SDK_TEMPLATE = 'svc://sdk/{platform}';

export const STATIC_RESOURCES: readonly Resource[] = [
  {
    uri: 'svc://tools',
    name: 'tools',
    title: 'Tool catalog',
    mimeType: JSON_TYPE,
    description: 'The live tool list with input and output schemas, annotations and required scopes.',
  },
  {
    uri: 'svc://contract',
    name: 'contract',
    title: 'Wire contract',
    mimeType: JSON_TYPE,
    description: 'Contract version, client API and webhook paths, agent REST spec link, scopes.',
  },
  ...APP_RESOURCES,
];

export function resourceTemplates(sdkResource: SdkResourceReader | undefined): ResourceTemplateType[] {
  return sdkResource
    ? [
        {
          uriTemplate: SDK_TEMPLATE,
          name: 'sdk',
          title: 'SDK guide for a platform',
          mimeType: JSON_TYPE,
          description: 'Install, init, attribution and purchase reporting for one platform.',
        },
      ]
    : [];
}

const json = (uri: string, value: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }],
});

export function readResource(
  uri: string,
  catalog: ToolCatalog,
  ctx: ExtraToolContext,
  sdkResource: SdkResourceReader | undefined,
): ReadResourceResult {
  if (uri === 'svc://tools') return json(uri, { tools: catalog.definitions });
  if (uri === 'svc://contract') return json(uri, contractDocument(ctx.baseUrl));
  const view = readAppResource(uri);
  if (view) return view;
  const platform = /^svc:\/\/sdk\/([^/?#]+)$/.exec(uri)?.[1];
  const guide = platform && sdkResource ? sdkResource(decodeURIComponent(platform), ctx) : undefined;
  if (guide) return json(uri, guide);
  // The SDK answers "not found" as -32602 with the URI in both eras (2026-07-28 requires it; v1 did the same).
  throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
}
