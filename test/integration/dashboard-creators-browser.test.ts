// The dashboard's creator-programme pages in a real browser (playwright-core driving Chromium; no browser is a
// failure, never a skip): a marketing asset uploaded and featured (and its file served back as an image); a creator
// invited and the invitation withdrawn, then a batch from the textarea; a bonus award approved, and one the wallet cannot cover refused
// with 402 and the way to top up; a free-access code created and blocked. Screenshots: test-output/screenshots/.
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, signInInBrowser } from '../helpers/chromium.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { ASSET_STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'svc-assets-')) } });
let browser: Browser;
let page: Page;

// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;

async function seedAward(usd: number, threshold: number): Promise<string> {
  const creator = (await h().db('creator_codes').where('campaign_id', seed.campaign_id).first('creator_id')).creator_id as string;
  const [rule] = await h()
    .db('bonus_rules')
    .insert({ campaign_id: seed.campaign_id, name: `Reach ${threshold}`, threshold_conversions: threshold, bonus_micros: usd * 1e6 })
    .returning('id');
  const [award] = await h()
    .db('bonus_awards')
    .insert({
      bonus_rule_id: rule.id,
      campaign_id: seed.campaign_id,
      creator_id: creator,
      org_id: seed.org_id,
      amount_micros: usd * 1e6,
      threshold_conversions: threshold,
      progress_count: threshold,
    })
    .returning('id');
  return award.id as string;
}

test.serial('an asset uploaded and featured; its file comes back as the image', async (t) => {
  await page.getByRole('link', { name: 'Assets' }).click();
  await page.getByRole('heading', { name: 'Marketing assets' }).waitFor();
  await page.getByLabel(/^File/).setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel('Title (optional)').fill('Launch banner');
  await page.getByLabel(/^Category/).fill('banner');
  await screenshot(page, 'creators-01-asset-upload');
  await page.getByRole('button', { name: 'Upload' }).click();
  const row = page.locator('#assets tr', { hasText: 'Launch banner' });
  await row.waitFor();
  t.is(await row.locator('.asset-featured').textContent(), '');
  await row.getByRole('button', { name: 'Feature' }).click();
  await page.locator('#assets tr', { hasText: 'Launch banner' }).getByRole('button', { name: 'Unfeature' }).waitFor();
  t.is(await page.locator('#assets tr', { hasText: 'Launch banner' }).locator('.asset-featured').textContent(), 'featured');
  await screenshot(page, 'creators-02-asset-featured');
  const asset = await h().db('assets').where({ app_id: seed.app_id, title: 'Launch banner' }).first();
  t.true(asset.featured);
  const file = await page.request.get(url(`/api/assets/${asset.id}/file`));
  t.is(file.headers()['content-type'], 'image/png');
  t.is(file.headers()['x-content-type-options'], 'nosniff');
  t.deepEqual(await file.body(), PNG);
});

test.serial('a creator invited, then the invitation withdrawn; the capacity follows', async (t) => {
  const email = `creator-${randomBytes(3).toString('hex')}@example.com`;
  await page.getByRole('link', { name: 'Creators' }).click();
  await page.getByRole('heading', { name: 'Creators', exact: true }).waitFor();
  const freeBefore = await page.locator('#slots-available').textContent();
  t.regex(
    (await page.locator('#creators').textContent()) ?? '',
    new RegExp(seed.creator_code),
    'the joined creator is listed with its code',
  );
  await page.getByLabel('Creator email').fill(email);
  await page.getByLabel('Name (optional)').fill('Robin');
  await page.getByRole('button', { name: 'Send invitation', exact: true }).click();
  const row = page.locator('#invitations tr', { hasText: email });
  await row.waitFor();
  t.is(await row.locator('.inv-status').textContent(), 'PENDING');
  t.not(await page.locator('#slots-available').textContent(), freeBefore);
  await screenshot(page, 'creators-03-invited');
  await row.getByRole('button', { name: 'Withdraw' }).click();
  await page.getByRole('dialog', { name: 'Withdraw this invitation?' }).getByRole('button', { name: 'Withdraw' }).click();
  await page.locator('#invitations tr', { hasText: email }).locator('.inv-status', { hasText: 'WITHDRAWN' }).waitFor();
  t.is(await page.locator('#slots-available').textContent(), freeBefore);
  t.is((await h().db('invitations').where({ email }).first('status')).status, 'WITHDRAWN');
  await screenshot(page, 'creators-04-withdrawn');

  // The batch form: one line per creator; a malformed line is reported per line by the handler, the others invited.
  await page.getByLabel(/^One creator per line/).fill(`a-${email}, Ana, es\nnot-an-email\nb-${email}`);
  await page.getByRole('button', { name: 'Send invitations' }).click();
  await page.locator('#invitations tr', { hasText: `b-${email}` }).waitFor();
  t.is(
    await page
      .locator('#invitations tr', { hasText: `a-${email}` })
      .locator('.inv-status')
      .textContent(),
    'PENDING',
  );
  t.is((await h().db('invitations').where('email', 'not-an-email')).length, 0);
});

test.serial('a bonus award approved; one the wallet cannot cover is refused with 402 and the way to top up', async (t) => {
  const small = await seedAward(40, 1);
  const huge = await seedAward(50_000, 2);
  await page.getByRole('link', { name: 'Bonus awards' }).click();
  await page.getByRole('heading', { name: 'Bonus awards' }).waitFor();
  await screenshot(page, 'creators-05-awards-earned');
  await page.locator(`tr[data-award="${small}"]`).getByRole('button', { name: 'Approve' }).click();
  await page.locator(`tr[data-award="${huge}"]`).waitFor();
  t.is(await page.locator(`tr[data-award="${small}"]`).count(), 0, 'approved awards leave the earned list');
  t.is((await h().db('bonus_awards').where('id', small).first('status')).status, 'approved');
  t.is(await page.locator('#safe-balance').textContent(), '$960.00 USD');

  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/bonus-awards/${huge}/review`));
  await page.locator(`tr[data-award="${huge}"]`).getByRole('button', { name: 'Approve' }).click();
  t.is((await answer).status(), 303, 'the refusal redirects back to the page (Post/Redirect/Get)');
  await page.locator('#flash').waitFor();
  t.regex((await page.getByRole('alert').textContent()) ?? '', /safe balance is \$960\.00/);
  await screenshot(page, 'creators-06-award-402');
  await page.locator('#flash').getByRole('link', { name: 'top up the wallet' }).click();
  await page.getByRole('heading', { name: 'Wallet' }).waitFor();
  t.is((await h().db('bonus_awards').where('id', huge).first('status')).status, 'earned');
  await page.goto(url('/dashboard/bonus-awards?status=approved'));
  t.is(await page.locator(`tr[data-award="${small}"] .award-status`).textContent(), 'approved');
});

test.serial('a free-access code created and blocked', async (t) => {
  const code = `VIP${randomBytes(3).toString('hex').toUpperCase()}`;
  await page.getByRole('link', { name: 'Free codes' }).click();
  await page.getByRole('heading', { name: 'Free-access codes' }).waitFor();
  await page.getByLabel(/^Code/).fill(code.toLowerCase());
  await page.getByLabel(/^Seat limit/).fill('5');
  await page.getByLabel(/^Access duration in days/).fill('30');
  await page.getByRole('button', { name: 'Create code' }).click();
  const row = page.locator(`tr[data-code="${code}"]`);
  await row.waitFor();
  t.is(await row.locator('.code-state').textContent(), 'live');
  await screenshot(page, 'creators-07-free-code');
  await row.getByRole('button', { name: 'Block' }).click();
  await page.getByRole('dialog', { name: 'Block this free code?' }).getByRole('button', { name: 'Block' }).click();
  await page.locator(`tr[data-code="${code}"] .code-state`, { hasText: 'blocked' }).waitFor();
  t.true((await h().db('free_access_codes').where({ app_id: seed.app_id, code }).first('blocked')).blocked);
  await screenshot(page, 'creators-08-free-code-blocked');
});
