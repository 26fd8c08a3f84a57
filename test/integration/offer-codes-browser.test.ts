// Creators' offer codes in Chromium (playwright-core; no browser is a failure, never a skip): on the dashboard's
// creator page an App Store offer is refused beside its field with what was typed kept, then added and shown active
// with its redemption link, then retired through the confirm dialog; in the creator portal the creator sees each
// active code's redemption link with a QR code drawn from that very link, and a retired code without one. Each page
// passes pageProblems (axe, 390 px). Screenshots: test-output/screenshots/offer-codes-*.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { modulesPath } from '../../api/creator-portal/qr.js';
import { launchChromium, signInInBrowser } from '../helpers/chromium.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { request } from '../helpers/http.js';
import { problemsAndScreenshots } from '../helpers/page-checks.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let browser: Browser;
let creatorId = '';

const APPLE_ID = '6450000001';

test.before(async () => {
  await h.ready();
  creatorId = (await h().db('creator_codes').where({ campaign_id: seed.campaign_id, code: seed.creator_code }).first('creator_id'))
    .creator_id;
  const meta = await request(h().baseUrl, 'PATCH', `/api/agent/apps/${seed.app_id}/apple-meta`, {
    token: seed.agent_key,
    body: { app_apple_id: APPLE_ID },
  });
  if (meta.status !== 200) throw new Error(meta.text);
  browser = await launchChromium();
});
test.after.always(() => browser?.close());

const url = (p: string) => `${h().baseUrl}${p}`;
const formId = () => `offer-code-${seed.campaign_id}`;

test.serial('dashboard creator page: refused beside the field with the value kept, added, then retired', async (t) => {
  const page = await (await browser.newContext()).newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
  await page.goto(url(`/dashboard/creators/${creatorId}`));
  await page.getByRole('heading', { name: 'Offer codes' }).waitFor();
  const form = page.locator(`#${formId()}-form`);
  await form.getByLabel('Store', { exact: true }).selectOption('ios');
  await form.getByLabel(/^Offer/).fill(' Maya spring');
  await form.getByLabel(/^Custom code/).fill('MAYA30');
  await form.getByRole('button', { name: 'Add offer code' }).click();

  const error = page.locator(`#${formId()}-value-error`);
  await error.waitFor();
  t.regex((await error.textContent())!, /no leading or trailing space/);
  t.is(await page.locator(`#${formId()}-value`).inputValue(), ' Maya spring', 'what was typed is kept');
  t.is(await page.locator(`#${formId()}-custom_code`).inputValue(), 'MAYA30');
  t.is(await page.locator(`#${formId()}-value`).getAttribute('aria-invalid'), 'true');
  t.deepEqual(await problemsAndScreenshots(page, 'offer-codes-01-refused'), []);
  t.is((await h().db('offer_codes').where('creator_id', creatorId).select('id')).length, 0, 'nothing written');

  await page.locator(`#${formId()}-value`).fill('Maya spring');
  await form.getByRole('button', { name: 'Add offer code' }).click();
  const row = page.locator(`#offer-codes-${seed.campaign_id} tr`, { hasText: 'Maya spring' });
  await row.waitFor();
  t.is(await row.locator('.offer-status').textContent(), 'active');
  const link = `https://apps.apple.com/redeem?ctx=offercodes&id=${APPLE_ID}&code=MAYA30`;
  t.is(await row.getByRole('link').getAttribute('href'), link);
  t.deepEqual(await problemsAndScreenshots(page, 'offer-codes-02-added'), []);

  await row.getByRole('button', { name: 'Retire' }).click();
  await page.getByRole('dialog', { name: 'Retire this offer code?' }).getByRole('button', { name: 'Retire' }).click();
  await page
    .locator(`#offer-codes-${seed.campaign_id} tr`, { hasText: 'Maya spring' })
    .locator('.offer-status', { hasText: 'retired' })
    .waitFor();
  t.is(
    await page.locator(`#offer-codes-${seed.campaign_id} tr`, { hasText: 'Maya spring' }).getByRole('button', { name: 'Retire' }).count(),
    0,
  );
  const stored = await h().db('offer_codes').where({ creator_id: creatorId, value: 'Maya spring' }).first();
  t.like(stored, { status: 'retired', platform: 'ios', custom_code: 'MAYA30' });
  t.truthy(stored.retired_at);
  const audit = await h().db('audit_log').where({ action: 'dashboard.retire_offer_code', actor_type: 'user' }).first();
  t.truthy(audit, 'the dashboard retirement is audited with the user as actor');
});

test.serial('creator portal: each active code with its redemption link and a QR code of that link', async (t) => {
  const play = await request(h().baseUrl, 'POST', `/api/agent/campaigns/${seed.campaign_id}/affiliates/${creatorId}/offer-codes`, {
    token: seed.agent_key,
    body: { platform: 'android', value: 'maya-tag', custom_code: 'MAYAPLAY' },
  });
  t.is(play.status, 201, play.text);
  const apple = await request(h().baseUrl, 'POST', `/api/agent/campaigns/${seed.campaign_id}/affiliates/${creatorId}/offer-codes`, {
    token: seed.agent_key,
    body: { platform: 'ios', value: 'Maya summer', custom_code: 'MAYASUMMER' },
  });
  t.is(apple.status, 201, apple.text);

  const email = (await h().db('creators').where('id', creatorId).first('email')).email as string;
  const session = await signInCreator(h().baseUrl, h().db, email);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name: 'svc_creator', value: session.token, url: h().baseUrl }]);
  const portal = await context.newPage();
  await portal.goto(url(`/dashboard/creator/campaigns/${seed.campaign_id}`));
  await portal.getByRole('heading', { name: 'Your store offer codes' }).waitFor();

  const shown: [string, string][] = [
    [play.body.id, play.body.redeem_url],
    [apple.body.id, apple.body.redeem_url],
  ];
  t.deepEqual(
    shown.map(([, link]) => link),
    ['https://play.google.com/redeem?code=MAYAPLAY', `https://apps.apple.com/redeem?ctx=offercodes&id=${APPLE_ID}&code=MAYASUMMER`],
  );
  for (const [id, link] of shown) {
    const item = portal.locator(`#offer-codes li[data-offer-code="${id}"]`);
    t.is(await item.locator('a.redeem-link').getAttribute('href'), link);
    const qr = item.locator('svg.qr');
    t.is(await qr.getAttribute('aria-label'), `QR code of your ${id === play.body.id ? 'Google Play' : 'App Store'} offer link ${link}`);
    t.is(await qr.locator('path').getAttribute('d'), modulesPath(link).d, 'the QR code encodes exactly the link shown');
  }
  const retired = portal.locator('#offer-codes li[data-status="retired"]');
  t.is(await retired.count(), 1);
  t.is(await retired.locator('svg.qr').count(), 0, 'a retired code has no link and no QR');
  t.regex((await retired.textContent())!, /retired/);
  t.deepEqual(await problemsAndScreenshots(portal, 'offer-codes-03-portal'), []);
  await context.close();
});
