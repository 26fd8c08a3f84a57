// The OAuth consent page as a person meets it (issue 28: "the consent page's checkboxes beside their labels, Deny not
// the primary action"), in Chromium at 390x844: an MCP client builds a real authorization request, the browser signs
// in and lands on the consent page, which must fit the phone's width and pass axe (no serious or critical
// violation); each scope's checkbox is inside its label, and Deny is not styled as the primary action.
// Screenshot: test-output/screenshots/oauth-consent-390.png.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { pageProblems } from '../helpers/page-checks.js';
import { TestOAuthProvider } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let browser: Browser;
test.before(async () => {
  await h.ready();
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
});

test('the consent page at 390 px: no overflow, axe clean, checkboxes inside their labels, Deny secondary', async (t) => {
  const provider = new TestOAuthProvider();
  const client = new Client({ name: 'consent-page-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h().baseUrl}/mcp`), { authProvider: provider })).then(
    () => t.fail('connected without authorization'),
    (err: unknown) => {
      if (!(err instanceof UnauthorizedError)) throw err;
    },
  );
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(provider.authorizationUrl!.href);
  await page.getByLabel('Email').fill(seed.user_email);
  await page.getByLabel('Password').fill(seed.user_password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('input[name="scope"]').first().waitFor();
  await screenshot(page, 'oauth-consent-390');

  t.deepEqual(await pageProblems(page, 'consent'), [], 'no horizontal overflow at 390 px, no serious or critical axe violation');
  const unlabelled = await page
    .locator('input[type="checkbox"], input[type="radio"]')
    .evaluateAll((boxes) => boxes.filter((b) => !b.closest('label')).length);
  t.is(unlabelled, 0, 'every checkbox sits inside its label');
  const deny = page.getByRole('button', { name: /deny/i });
  const approve = page.getByRole('button', { name: /allow|approve|authori[sz]e/i });
  const [denyBg, approveBg] = await Promise.all([
    deny.evaluate((b) => getComputedStyle(b).backgroundColor),
    approve.evaluate((b) => getComputedStyle(b).backgroundColor),
  ]);
  t.not(denyBg, approveBg, 'Deny does not look like the primary action');
  await context.close();
});
