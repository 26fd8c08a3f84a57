// The checklist as an MCP App, in a real browser: a test page plays the host with ext-apps' own app bridge
// (AppBridge + PostMessageTransport), renders the `ui://` page that svc_integration_status declares, in a sandboxed
// frame under the MCP Apps default CSP, and hands it a real checklist result from /mcp. The page's button gets a
// signed link through the host (tools/call forwarded to /mcp) and asks the host to open it (ui/open-link): the test
// then opens that link as the human would. The wallet view does the same with the top-up link.
// Screenshots: test-output/screenshots/mcp-app-*.png.
import test from 'ava';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { connectMcp, ok, type McpSession } from '../helpers/mcp.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

/** The MCP Apps default CSP (spec: a resource without `_meta.ui.csp`), set on the frame as a host does. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' " +
  "'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none';";

/** The host side, bundled for the browser: ext-apps' AppBridge talking to the frame, tool calls and links handed to the test. */
const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.startHost = async ({ html, args, result }) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.cssText = 'width: 680px; height: 1400px; border: 1px solid #999';
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { openLinks: {}, serverTools: {} });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onopenlink = async ({ url }) => { await window.hostOpenLink(url); return {}; };
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
};`;

let browser: Browser;
let hostBundle: string;
let mcp: McpSession;

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  const built = await build({
    stdin: { contents: HOST_SCRIPT, resolveDir: PROJECT_ROOT, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  hostBundle = built.outputFiles[0]!.text;
  mcp = await connectMcp(h().baseUrl, seed.agent_key);
});
test.after.always(async () => {
  await mcp?.close();
  await browser?.close();
});

/** The `ui://` page a tool declares, read from /mcp like a host does (tools/list, then resources/read). */
async function declaredView(tool: string): Promise<{ uri: string; html: string; mimeType: string }> {
  const listed = (await mcp.client.listTools()).tools.find((t) => t.name === tool)!;
  const uri = (listed._meta?.ui as { resourceUri: string }).resourceUri;
  const [content] = (await mcp.client.readResource({ uri })).contents;
  return { uri, html: (content as { text: string }).text, mimeType: content!.mimeType! };
}

/** Opens the host page, renders `tool`'s view with `result`; returns the page and the links the view asked to open. */
async function host(tool: string, args: Record<string, unknown>, result: unknown): Promise<{ page: Page; opened: string[] }> {
  const { html } = await declaredView(tool);
  const page = await (await browser.newContext()).newPage();
  const opened: string[] = [];
  await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => mcp.client.callTool(params));
  await page.exposeFunction('hostOpenLink', (url: string) => {
    opened.push(url);
  });
  await page.setContent(`<!DOCTYPE html><html><body><script>${hostBundle}</script></body></html>`);
  const framed = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">`);
  await page.evaluate((input) => (globalThis as unknown as { startHost(i: unknown): Promise<void> }).startHost(input), {
    html: framed,
    args,
    result,
  });
  return { page, opened };
}

test('svc_integration_status and svc_get_wallet declare their ui:// pages (text/html;profile=mcp-app); other tools none', async (t) => {
  const view = await declaredView('svc_integration_status');
  t.is(view.uri, 'ui://svc/integration-checklist.html');
  t.is(view.mimeType, 'text/html;profile=mcp-app');
  t.regex(view.html, /^<!DOCTYPE html>/);
  t.notRegex(view.html, /<script[^>]+src=|<link[^>]+href=/, 'self-contained: nothing loaded from elsewhere');
  t.is((await declaredView('svc_get_wallet')).uri, 'ui://svc/wallet.html');
  const others = (await mcp.client.listTools()).tools.filter((tool) => tool._meta?.ui !== undefined).map((tool) => tool.name);
  t.deepEqual(others.sort(), ['svc_get_wallet', 'svc_integration_status']);
  // A host without MCP Apps still reads the result's text, unchanged.
  const result = await mcp.call('svc_integration_status', { app_id: seed.app_id });
  t.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.structuredContent);
});

test('the checklist renders in the host frame with its state and next actions; its link opens through the host', async (t) => {
  const args = { app_id: seed.app_id };
  const result = await mcp.call('svc_integration_status', args);
  const status = ok(result);
  const { page, opened } = await host('svc_integration_status', args, result);
  const frame = page.frameLocator('iframe');
  await frame.getByRole('heading', { name: /Integration checklist/ }).waitFor();
  t.is(await frame.locator('li.step').count(), 8);
  for (const item of status.checklist as { step: string; done: boolean }[]) {
    t.is(await frame.locator(`li.step.${item.done ? 'done' : 'open'}[data-step="${item.step}"]`).count(), 1, item.step);
  }
  const open = status.next_actions as { step: string; action: string }[];
  t.true(open.length > 0, 'the seeded app is not live yet');
  for (const action of open) {
    t.regex(
      // A checklist step's item, or the SDK-less section beside the list (step sdk_less_attribution).
      (await frame.locator(`[data-step="${action.step}"] .action`).textContent()) ?? '',
      new RegExp(action.action.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
  }
  await t.notThrowsAsync(
    frame
      .getByText(status.live ? 'live' : /\d of 8 done/)
      .first()
      .waitFor(),
  );
  await screenshot(page, 'mcp-app-01-checklist');

  // The seeded app's purchases are not wired yet: the human uploads the subscription provider's key on a signed page.
  await frame.getByRole('button', { name: 'Upload the subscription provider key' }).click();
  await frame.getByText(/Opened in your browser/).waitFor();
  await screenshot(page, 'mcp-app-02-link-opened');
  t.is(opened.length, 1);
  t.regex(opened[0]!, /^https?:\/\/[^/]+\/.*credential-upload/);
  const human = await (await browser.newContext()).newPage();
  const answer = await human.goto(opened[0]!);
  t.is(answer?.status(), 200);
  t.regex(await human.content(), /subprovider/i);
  await screenshot(human, 'mcp-app-03-credential-page');
});

test('the wallet view renders the balance and opens a top-up link through the host', async (t) => {
  const result = await mcp.call('svc_get_wallet', {});
  const wallet = ok(result);
  const { page, opened } = await host('svc_get_wallet', {}, result);
  const frame = page.frameLocator('iframe');
  await frame.getByRole('heading', { name: /Wallet/ }).waitFor();
  t.is(await frame.locator('dd').first().textContent(), `$${(wallet.balance as number).toFixed(2)}`);
  await frame.getByRole('button', { name: 'Top up the wallet' }).click();
  await frame.getByText(/Opened in your browser/).waitFor();
  t.is(opened.length, 1);
  const human = await (await browser.newContext()).newPage();
  t.is((await human.goto(opened[0]!))?.status(), 200);
  await human.getByRole('heading', { name: /Top up your wallet/ }).waitFor();
  await screenshot(page, 'mcp-app-04-wallet');
});
