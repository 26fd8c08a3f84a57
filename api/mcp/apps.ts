// MCP Apps (the `io.modelcontextprotocol/ui` extension, @modelcontextprotocol/ext-apps): svc_integration_status and
// svc_get_wallet declare a `ui://` resource, a self-contained HTML page (mime `text/html;profile=mcp-app`) that a host
// supporting MCP Apps renders in a sandboxed frame with the tool's result: the checklist with its state, the next
// action of each open step and the signed links a human must open, or the wallet. The page talks only to its host
// (ext-apps' App over postMessage): it asks the host to call our tools for fresh signed links and to open them (the
// frame cannot navigate), so it needs no network access and runs under the spec's restrictive default CSP. A host
// without MCP Apps ignores `_meta.ui` and shows the tool result's text, as before.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';

interface AppView {
  uri: string;
  name: string;
  title: string;
  description: string;
  view: 'checklist' | 'wallet';
}

const VIEWS: readonly AppView[] = [
  {
    uri: 'ui://svc/integration-checklist.html',
    name: 'integration-checklist',
    title: 'Integration checklist',
    view: 'checklist',
    description: 'The 8-step checklist of svc_integration_status with the next actions and the links for the human.',
  },
  {
    uri: 'ui://svc/wallet.html',
    name: 'wallet',
    title: 'Wallet',
    view: 'wallet',
    description: 'The wallet of svc_get_wallet with the top-up link for the human.',
  },
];

/**
 * The server's side of the extension's negotiation (SEP-2133): it offers MCP Apps (in `initialize` and in
 * `server/discover`). The tools carry `_meta.ui` for every client, whatever it declared: the spec's "SHOULD check
 * client capabilities before registering UI-enabled tools" would make the tool list differ per client, which a
 * stateless 2025-era server cannot know (the `initialize` was another request) and which would end the shared cache
 * scope of the list; a host without MCP Apps ignores `_meta.ui` and reads the text, so nothing degrades.
 */
export const APPS_EXTENSION = { [EXTENSION_ID]: {} };

/** The tools that declare a view, and which. */
const TOOL_VIEWS: Readonly<Record<string, string>> = {
  svc_integration_status: 'ui://svc/integration-checklist.html',
  svc_get_wallet: 'ui://svc/wallet.html',
};

/** The `_meta` a tool adds for its view: `ui.resourceUri`, plus the older flat key (as ext-apps' registerAppTool does). */
export function appToolMeta(tool: string): Record<string, unknown> {
  const uri = TOOL_VIEWS[tool];
  return uri ? { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } : {};
}

export const APP_RESOURCES: readonly Resource[] = VIEWS.map(({ uri, name, title, description }) => ({
  uri,
  name,
  title,
  description,
  mimeType: RESOURCE_MIME_TYPE,
}));

/**
 * ext-apps' App, bundled with its dependencies (the package's `app-with-deps` build), made usable from an inline
 * script: the default CSP of MCP Apps allows inline scripts only, not `data:` or `blob:` modules, so the bundle is
 * inlined and its closing `export { local as Name, ... }` becomes `const ExtApps = { Name: local, ... }`.
 */
function extAppsInline(): string {
  const file = createRequire(import.meta.url).resolve('@modelcontextprotocol/ext-apps/app-with-deps');
  const bundle = readFileSync(file, 'utf8');
  const exported = /export\s*\{([^}]*)\};?\s*$/.exec(bundle);
  if (!exported) throw new Error(`${file}: no closing export clause to inline`);
  const names = exported[1]!
    .split(',')
    .map((part) => part.trim().split(/\s+as\s+/))
    .map(([local, name]) => `${JSON.stringify(name ?? local)}: ${local}`);
  return `${bundle.slice(0, exported.index)}\nconst ExtApps = { ${names.join(', ')} };`;
}

let page: string | undefined;
/** The page of every view (it renders what its tool answered); built once per process. */
function viewPage(): string {
  page ??= readFileSync(new URL('./views/status-view.html', import.meta.url), 'utf8')
    // A function replacer: the bundle contains `$` sequences that a replacement string would interpret.
    .replace('/*EXT_APPS*/', () => extAppsInline());
  return page;
}

/** `resources/read` of a `ui://` view, or undefined for another URI. */
export function readAppResource(uri: string): ReadResourceResult | undefined {
  const view = VIEWS.find((v) => v.uri === uri);
  if (!view) return undefined;
  const text = viewPage().replace('data-view=""', `data-view="${view.view}"`);
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text, _meta: { ui: { prefersBorder: true } } }] };
}
