// The asset-upload link in a real browser (playwright-core driving Chromium): a human opens the link the agent got,
// picks two files in the form, submits, and sees them uploaded; the agent then lists them. Screenshots:
// test-output/screenshots/ (asset-link-*.png).
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from '../helpers/chromium.js';
import { request } from '../helpers/http.js';
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

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');

test('a human submits the link page form with two files; the agent lists them and the link is spent', async (t) => {
  const agent = (method: string, path: string) => request(h().baseUrl, method, `/api/agent${path}`, { token: seed.agent_key });
  const before = (await agent('GET', `/apps/${seed.app_id}/assets`)).body.assets.length as number;
  const { url } = (await agent('POST', `/apps/${seed.app_id}/asset-upload-link`)).body as { url: string };

  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.getByRole('heading', { name: 'Upload marketing assets' }).waitFor();
  await page.getByLabel(/^Files/).setInputFiles([
    { name: 'story.png', mimeType: 'image/png', buffer: PNG },
    { name: 'media-kit.pdf', mimeType: 'application/pdf', buffer: PDF },
  ]);
  await page.getByLabel(/^Category/).fill('story');
  await screenshot(page, 'asset-link-01-form');
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('heading', { name: 'Assets uploaded' }).waitFor();
  t.regex((await page.locator('#uploaded-count').textContent()) ?? '', /^2 files uploaded/);
  await screenshot(page, 'asset-link-02-uploaded');

  const assets = (await agent('GET', `/apps/${seed.app_id}/assets`)).body.assets as { mime_type: string; category: string }[];
  t.is(assets.length, before + 2);
  t.deepEqual(
    assets
      .filter((a) => a.category === 'story')
      .map((a) => a.mime_type)
      .sort(),
    ['application/pdf', 'image/png'],
  );

  // Back and submit again: the link is spent.
  await page.goto(url);
  await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
  t.regex((await page.locator('p.error').textContent()) ?? '', /already been used/);
});
