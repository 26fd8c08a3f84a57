// Issue 41 "every form that fails today", in a real browser (playwright-core driving Chromium): each listed form is
// submitted wrong (the browser's own checks switched off, as a browser without them would post) and comes back with
// what was typed (files and passwords excepted, and the file field says so), every message under its field in words
// (no schema words, field keys or REST paths), every problem listed at once above the form, and the focus on the
// first field that needs a change. Uploads come back to their page inside the dashboard. The campaign step names the
// minimum escrow and the fee (the running config's, not a copy) and offers the top-up; a refused activation says so
// in words with the way to the wallet. Each error state passes axe at 1280 and 390 px; screenshots:
// test-output/screenshots/form-errors-*-{1280,390}.png.
import test, { type ExecutionContext } from 'ava';
import type { Browser, Locator, Page } from 'playwright-core';
import { formatUsd } from '../../lib/money.js';
import path from 'node:path';
import { launchChromium, SCREENSHOT_DIR, signInInBrowser } from '../helpers/chromium.js';
import { problemsAndScreenshots } from '../helpers/page-checks.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let browser: Browser;
let page: Page;
/** Axe and overflow problems of every error state, checked at the end (so one bad page does not hide the others). */
const pageProblems: string[] = [];

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;
/** Words a person should never read in a form's answer: validator words, field keys, REST paths, tool names. */
const NOT_FOR_PEOPLE = new RegExp(
  [
    /must match|must be (integer|number|string|boolean)|Field required|must NOT|,null/,
    /\b(GET|POST|PATCH|PUT|DELETE) \//,
    /\b[a-z]+_[a-z_]+:|\bsvc_[a-z_]+/,
  ]
    .map((r) => r.source)
    .join('|'),
);

/** The form holding the field `name` (there may be several forms on a page). */
const formWith = (p: Page, name: string) => p.locator('form', { has: p.locator(`[name="${name}"]`) }).first();

/** Switches the browser's own checks off, fills the text fields, and submits. */
async function submitWrong(form: Locator, fields: Record<string, string>, submit: string): Promise<void> {
  await form.evaluate((f) => f.setAttribute('novalidate', ''));
  for (const [name, value] of Object.entries(fields)) {
    const input = form.locator(`[name="${name}"]`).first();
    if ((await input.evaluate((e) => e.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
  await Promise.all([form.page().waitForLoadState('load'), form.getByRole('button', { name: submit }).click()]);
  await form.page().locator('h1').waitFor();
}

interface Expect {
  /** The field names that must be marked, in the form's order (the first gets the focus). */
  invalid: string[];
  /** What must still be in the fields. */
  kept: Record<string, string>;
  /** A field the message is under when it is not an input of that name (the scope checkboxes' fieldset). */
  errorIds?: Record<string, string>;
}

/** The refused form: values kept, each message under its field in words, all listed, the focus on the first. */
async function checkRefused(t: ExecutionContext, p: Page, form: Locator, e: Expect, shot: string): Promise<void> {
  const marked = await form.locator('[aria-invalid="true"]').evaluateAll((els) => els.map((el) => el.getAttribute('name')));
  t.deepEqual(
    marked,
    e.invalid.filter((n) => !e.errorIds?.[n]),
    `${shot}: exactly the wrong fields are marked, in order`,
  );
  for (const name of e.invalid) {
    const errorId =
      e.errorIds?.[name] ??
      (await form.locator(`[name="${name}"]`).first().getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    const message = (await p.locator(`[id="${errorId}"]`).textContent())?.trim() ?? '';
    t.true(message.length > 5, `${shot}: ${name} has a message under it`);
    t.notRegex(message, NOT_FOR_PEOPLE, `${shot}: ${name}'s message is in words`);
    // Under its field: the message follows the field in the page and sits inside the same form.
    t.is(await form.locator(`[id="${errorId}"]`).count(), 1, `${shot}: ${name}'s message is inside its form`);
  }
  for (const [name, value] of Object.entries(e.kept))
    t.is(await form.locator(`[name="${name}"]`).first().inputValue(), value, `${shot}: what was typed in ${name} is kept`);
  const summary = p.getByRole('alert').first();
  const summaryText = (await summary.textContent()) ?? '';
  t.is(await summary.locator('li').count(), e.invalid.length, `${shot}: every problem is listed at once: ${summaryText}`);
  t.notRegex(summaryText, NOT_FOR_PEOPLE, `${shot}: the summary is in words`);
  t.notRegex((await form.textContent()) ?? '', NOT_FOR_PEOPLE, `${shot}: the form is in words`);
  t.is(
    await p.evaluate(() => document.activeElement?.getAttribute('name')),
    e.invalid[0],
    `${shot}: the focus is on the first wrong field`,
  );
  pageProblems.push(...(await problemsAndScreenshots(p, `form-errors-${shot}`)));
}

test.serial('sign-up: every problem at once, under its field, the email kept, the focus on the organization name', async (t) => {
  const anon = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await anon.newPage();
  await p.goto(url('/dashboard/signup'));
  await submitWrong(formWith(p, 'org_name'), { org_name: '', email: 'not-an-email', password: 'short' }, 'Create account');
  await checkRefused(
    t,
    p,
    formWith(p, 'org_name'),
    { invalid: ['org_name', 'email', 'password'], kept: { email: 'not-an-email', password: '' } },
    'signup',
  );
  t.regex((await p.locator('#password-hint').textContent()) ?? '', /type it anew/, 'the page says why the password is empty');
  await anon.close();
});

let newAppId = '';

test.serial('create app: bad slug and store addresses answered in words, the name kept; then the app is made', async (t) => {
  await page.goto(url('/dashboard'));
  const typed = {
    name: 'Form errors app',
    slug: 'Bad Slug!',
    ios_store_url: 'http://apps.apple.com/app/x',
    android_store_url: 'play.google.com',
  };
  await submitWrong(formWith(page, 'ios_store_url'), typed, 'Create app');
  const form = formWith(page, 'ios_store_url');
  await checkRefused(t, page, form, { invalid: ['slug', 'ios_store_url', 'android_store_url'], kept: typed }, 'create-app');
  t.regex((await page.locator('#app-ios-error').textContent()) ?? '', /starting with https:\/\//);
  await submitWrong(form, { slug: '', ios_store_url: '', android_store_url: '' }, 'Create app');
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  newAppId = (await h().db('apps').where({ org_id: seed.org_id, name: 'Form errors app' }).first('id')).id as string;
});

test.serial('create campaign: a percentage over 100 and half a day, in words with the name kept and the type still picked', async (t) => {
  await page.goto(url(`/dashboard/campaigns?app_id=${seed.app_id}`));
  const typed = { name: 'Summer push', commission_percentage: '150', holding_period_days: '2.5', campaign_type: 'private' };
  await submitWrong(formWith(page, 'campaign_type'), typed, 'Create campaign (draft)');
  const form = formWith(page, 'campaign_type');
  await checkRefused(t, page, form, { invalid: ['commission_percentage', 'holding_period_days'], kept: typed }, 'create-campaign');
  t.regex((await page.locator('#new-holding-error').textContent()) ?? '', /whole days/);
});

test.serial('the campaign step names the minimum escrow and the fee, offers the top-up, and refuses in words', async (t) => {
  await page.goto(url(`/dashboard/apps/${newAppId}`));
  const step = page.locator('li[data-step="campaign_active"]');
  const config = h().config;
  const text = (await step.textContent()) ?? '';
  t.true(text.includes(formatUsd(config.MIN_ESCROW_USD * 1_000_000)), `the minimum escrow is named: ${text}`);
  t.true(text.includes(`${config.PLATFORM_FEE_PERCENT}%`), 'the platform fee is named');
  t.is(await step.getByRole('link', { name: 'Top up the wallet' }).getAttribute('href'), '/dashboard/wallet#topup');
  await submitWrong(formWith(page, 'commission_percentage'), { name: '', commission_percentage: 'ten' }, 'Create campaign (draft)');
  await checkRefused(
    t,
    page,
    formWith(page, 'commission_percentage'),
    { invalid: ['name', 'commission_percentage'], kept: { commission_percentage: 'ten' } },
    'campaign-step',
  );
  await submitWrong(
    formWith(page, 'commission_percentage'),
    { name: 'Step campaign', commission_percentage: '15' },
    'Create campaign (draft)',
  );
  // An activation the wallet cannot back: the organization's minimum raised above its balance.
  const minimum = 10_000_000_000_000;
  await h().db('organizations').where('id', seed.org_id).update({ min_escrow_micros: minimum });
  try {
    await page.goto(url(`/dashboard/apps/${newAppId}`));
    await page.locator('li[data-step="campaign_active"]').getByRole('button', { name: 'Activate' }).click();
    const alert = page.getByRole('alert').first();
    await alert.waitFor();
    const said = (await alert.textContent()) ?? '';
    t.true(said.includes(formatUsd(minimum)), `the refusal names the minimum: ${said}`);
    t.notRegex(said, NOT_FOR_PEOPLE, `the refusal is written for a person: ${said}`);
    t.is(await alert.getByRole('link').getAttribute('href'), '/dashboard/wallet#topup', 'with the way to the top-up');
    pageProblems.push(...(await problemsAndScreenshots(page, 'form-errors-activation-refused')));
  } finally {
    await h().db('organizations').where('id', seed.org_id).update({ min_escrow_micros: null });
  }
});

test.serial('free code: the length rule after cleanup, seats and days in words, all at once', async (t) => {
  await page.goto(url(`/dashboard/free-codes?app=${seed.app_id}`));
  const typed = { code: 'a!b', name: 'Press', seat_limit: '-3', access_duration_days: 'a week' };
  await submitWrong(formWith(page, 'seat_limit'), typed, 'Create code');
  await checkRefused(
    t,
    page,
    formWith(page, 'seat_limit'),
    { invalid: ['code', 'seat_limit', 'access_duration_days'], kept: typed },
    'free-code',
  );
  t.regex((await page.locator('#fc-code-error').textContent()) ?? '', /"AB" is left \(2 characters\)\. Use 4 to 20/);
});

test.serial('team invite: a bad address and a role that does not exist, both at once, the address kept', async (t) => {
  await page.goto(url('/dashboard/team'));
  const form = formWith(page, 'role');
  await form.locator('select[name=role]').evaluate((s) => s.append(new Option('boss', 'boss')));
  await submitWrong(form, { email: 'someone@', role: 'boss' }, 'Send invitation');
  await checkRefused(t, page, formWith(page, 'role'), { invalid: ['email', 'role'], kept: { email: 'someone@' } }, 'team-invite');
});

test.serial('connect agent: no name and no scope, both at once, the scopes left as they were', async (t) => {
  await page.goto(url('/dashboard/agents'));
  const form = formWith(page, 'scope');
  for (const box of await form.locator('input[name=scope]').all()) await box.uncheck();
  await submitWrong(form, { name: '   ' }, 'Create key');
  const again = formWith(page, 'scope');
  await checkRefused(
    t,
    page,
    again,
    { invalid: ['name', 'scope'], kept: { name: '   ' }, errorIds: { scope: 'key-scope-error' } },
    'agent-key',
  );
  t.is(await again.locator('input[name=scope]:checked').count(), 0, 'the scopes stay as they were');
});

test.serial('credential upload: a wrong file and bad fields answer on the setup page, in the shell, the fields kept', async (t) => {
  await page.goto(url(`/dashboard/apps/${seed.app_id}`));
  const form = page.locator('form', { has: page.locator('input[name=platform][value=ios]') });
  await form.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  const typed = { key_id: 'abc', issuer_id: 'my issuer', bundle_id: 'com.example.app', environment: 'production' };
  await submitWrong(form, typed, 'Upload ios credential');
  t.is(new URL(page.url()).pathname, `/dashboard/apps/${seed.app_id}`, 'back on the setup page');
  t.true(await page.locator('nav.top').isVisible(), 'inside the dashboard shell');
  const again = page.locator('form', { has: page.locator('input[name=platform][value=ios]') });
  await checkRefused(t, page, again, { invalid: ['file', 'key_id', 'issuer_id', 'app_apple_id'], kept: typed }, 'credential-upload');
  t.regex((await page.locator('#ios-file-hint').textContent()) ?? '', /Choose the file again/, 'the page says the file is not kept');
  await again.screenshot({ path: path.join(SCREENSHOT_DIR, 'form-errors-credential-form-1280.png') });
  t.is(
    await h()
      .db('store_credentials')
      .where('app_id', seed.app_id)
      .count<{ n: string }[]>('* as n')
      .then((r) => Number(r[0]!.n)),
    0,
  );
});

test.serial('asset upload: not an image and a bad category answer on the assets page, in the shell, the title kept', async (t) => {
  await page.goto(url(`/dashboard/assets?app=${seed.app_id}`));
  const form = formWith(page, 'category');
  await form.locator('input[type=file]').setInputFiles({ name: 'looks.png', mimeType: 'image/png', buffer: Buffer.from('<html></html>') });
  const typed = { title: 'Story banner', category: 'Not OK!', description: 'For stories' };
  await submitWrong(form, typed, 'Upload');
  t.is(new URL(page.url()).pathname, '/dashboard/assets', 'back on the assets page');
  t.true(await page.locator('nav.top').isVisible(), 'inside the dashboard shell');
  await checkRefused(t, page, formWith(page, 'category'), { invalid: ['file', 'category'], kept: typed }, 'asset-upload');
  t.regex((await page.locator('#as-file-hint').textContent()) ?? '', /Choose the file again/);
  t.is((await h().db('assets').where('app_id', seed.app_id)).length, 0, 'nothing stored');
});

test.serial('every error state passes axe and fits at 1280 and 390 px', (t) => {
  t.deepEqual(pageProblems, []);
});
