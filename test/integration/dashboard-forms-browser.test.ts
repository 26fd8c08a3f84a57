// The dashboard as a product, in a real browser (playwright-core driving Chromium; no browser is a failure, never a
// skip): forms speak human (a bad top-up amount is an error beside the field with the typed value kept and nothing
// recorded; a batch invite reports its bad line), destructive actions confirm first (a dialog with JavaScript; a
// post without `confirmed` only gets the confirm page), a regenerated secret is shown once on a GET page with a copy
// button, the ledger's change columns add up to the totals shown, and every page works at 390 px wide with no
// serious or critical axe violation. Screenshots: test-output/screenshots/forms-*.png.
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { launchChromium, screenshot, signInInBrowser } from '../helpers/chromium.js';
import { pageProblems } from '../helpers/page-checks.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let browser: Browser;
let context: BrowserContext;
let page: Page;

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h().baseUrl });
  page = await context.newPage();
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async () => {
  await browser?.close();
});

const url = (p: string) => `${h().baseUrl}${p}`;
const usd = (text: string | null) => Number((text ?? '').replace(/[^\d.−-]/g, '').replace('−', '-') || 0);
const csrfOf = (p: Page) => p.locator('input[name=csrf]').first().inputValue();

/** A form post from the signed-in browser without the confirmation field (what a no-JS browser's first click sends). */
async function unconfirmedPost(path: string, fields: Record<string, string>) {
  return page.request.post(url(path), { form: { csrf: await csrfOf(page), ...fields }, maxRedirects: 0 });
}

test.serial('the ledger: each row shows the change of the rounded running total, so the columns add up to the totals shown', async (t) => {
  const before = await h().db('wallet_ledger').where('org_id', seed.org_id).count<{ count: string }[]>('* as count');
  for (const [i, micros] of [3_295_100, 19_795_100].entries()) {
    await appendLedgerEntry(h().db, {
      orgId: seed.org_id,
      entryType: 'reserve',
      balanceDeltaMicros: 0,
      reservedDeltaMicros: micros,
      idempotencyKey: `forms-test-reserve-${i}`,
      memo: `test reserve ${i}`,
    });
  }
  await page.goto(url('/dashboard/wallet'));
  const reserved = usd(await page.locator('#wallet-reserved').textContent());
  const balance = usd(await page.locator('#wallet-balance').textContent());
  const column = async (cls: string) => (await page.locator(`#ledger td.${cls}`).allTextContents()).map(usd);
  const reservedChanges = await column('reserved-change');
  const balanceChanges = await column('balance-change');
  t.is(Number(before[0]!.count) + 2, await page.locator('#ledger tbody tr:not(.opening)').count(), 'every entry is listed');
  t.deepEqual(reservedChanges.slice(0, 2), [19.79, 3.3], 'raw 19.7951 after 3.2951 shows +19.79, the change of the rounded total');
  t.is(
    Math.round(reservedChanges.reduce((a, b) => a + b, 0) * 100),
    Math.round(reserved * 100),
    'the reserved column adds up to the reserved total',
  );
  t.is(Math.round(balanceChanges.reduce((a, b) => a + b, 0) * 100), Math.round(balance * 100), 'the balance column adds up to the balance');
  t.regex((await page.locator('#wallet-reserved').textContent()) ?? '', /\$23\.09/);
  await screenshot(page, 'forms-01-ledger');
  // The harness's books check wants every reservation to belong to a commission or an award: give these back.
  for (const [i, micros] of [3_295_100, 19_795_100].entries()) {
    await appendLedgerEntry(h().db, {
      orgId: seed.org_id,
      entryType: 'release',
      balanceDeltaMicros: 0,
      reservedDeltaMicros: -micros,
      idempotencyKey: `forms-test-release-${i}`,
      memo: `test release ${i}`,
    });
  }
});

test.serial(
  'a top-up of -50 or "abc" is an error beside the field with the typed value kept, and records nothing; a good one goes on',
  async (t) => {
    const payments = () =>
      h()
        .db('payments')
        .where('org_id', seed.org_id)
        .count<{ count: string }[]>('* as count')
        .then((r) => Number(r[0]!.count));
    const topups = () =>
      h()
        .db('wallet_ledger')
        .where({ org_id: seed.org_id, entry_type: 'topup' })
        .count<{ count: string }[]>('* as count')
        .then((r) => Number(r[0]!.count));
    const [before, topupsBefore] = [await payments(), await topups()];
    for (const bad of ['-50', 'abc']) {
      await page.goto(url('/dashboard/wallet'));
      await page.getByLabel(/^Amount \(USD/).fill(bad);
      await page.getByRole('button', { name: 'Continue to top-up' }).click();
      const error = page.locator('#topup-amount-error');
      await error.waitFor();
      t.regex((await error.textContent()) ?? '', /Enter an amount in US dollars|between/, bad);
      t.is(await page.getByLabel(/^Amount \(USD/).inputValue(), bad, 'what was typed is kept');
      t.is(await page.getByLabel(/^Amount \(USD/).getAttribute('aria-invalid'), 'true');
      t.regex((await page.getByRole('alert').first().textContent()) ?? '', new RegExp(`"${bad}"`), 'the message names the amount');
      t.is(await payments(), before, 'nothing was recorded');
      await screenshot(page, `forms-02-topup-bad-${bad === 'abc' ? 'abc' : 'negative'}`);
    }
    await page.getByLabel(/^Amount \(USD/).fill('25');
    await page.getByRole('button', { name: 'Continue to top-up' }).click();
    await page.getByRole('heading', { name: 'Top up your wallet' }).waitFor();
    t.is(await page.getByLabel(/^Amount \(USD/).inputValue(), '25', 'the amount asked for, not a silent default');
    const problems = await pageProblems(page, 'top-up link page');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('heading', { name: 'Confirm the top-up' }).waitFor();
    problems.push(...(await pageProblems(page, 'test-mode confirm page')));
    await page.getByRole('button', { name: 'Confirm test payment' }).click();
    await page.getByRole('heading', { name: 'Wallet top-up' }).waitFor();
    problems.push(...(await pageProblems(page, 'payment page')));
    t.deepEqual(problems, [], 'the top-up link pages fit 390 px and pass axe');
    t.regex((await page.locator('[data-status]').textContent()) ?? '', /Credited \$25\.00/);
    t.regex(page.url(), /\/dashboard\/topups\/[^/?]+\?confirmed=/, 'the confirmation redirected to a page of its own (Post/Redirect/Get)');
    await page.reload();
    t.regex((await page.locator('[data-status]').textContent()) ?? '', /Credited \$25\.00/);
    t.is(await payments(), before + 1);
    t.is(await topups(), topupsBefore + 1, 'one credit, also after the reload');
  },
);

test.serial('regenerating the webhook secret: a confirm dialog, then the secret once on a GET page with a copy button', async (t) => {
  const hash = () =>
    h()
      .db('apps')
      .where('id', seed.app_id)
      .first('webhook_secret_hash')
      .then((r) => r.webhook_secret_hash as string);
  const before = await hash();
  await page.goto(url(`/dashboard/apps/${seed.app_id}`));
  await page.getByRole('button', { name: 'Regenerate webhook secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Regenerate the webhook secret?' });
  await dialog.waitFor();
  await screenshot(page, 'forms-03-confirm-dialog');
  t.is(await hash(), before, 'the first click only asks');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.is(await hash(), before, 'cancel changes nothing');
  await page.getByRole('button', { name: 'Regenerate webhook secret' }).click();
  await dialog.getByRole('button', { name: 'Regenerate webhook secret' }).click();
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  t.is(new URL(page.url()).pathname, '/dashboard/shown-once', 'the secret is on a GET page, not the POST answer');
  const secret = await page.locator('#webhook_secret').inputValue();
  t.not(await hash(), before);
  t.true(secret.length > 20);
  t.regex((await page.locator('main').textContent()) ?? '', /Next: paste it into your subscription provider/);
  await page.getByRole('button', { name: 'Copy webhook secret' }).click();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), secret, 'the copy button copies the secret');
  await screenshot(page, 'forms-04-shown-once');
  await page.reload();
  await page.getByRole('heading', { name: 'Nothing to show' }).waitFor();
  t.false((await page.content()).includes(secret), 'a reload never shows it again');
});

test.serial(
  'destructive posts without the confirmation only get the confirm page: regenerate, revoke an agent key, block a code',
  async (t) => {
    await page.goto(url('/dashboard/agents'));
    await page.getByLabel('Name', { exact: true }).fill('Doomed agent');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
    t.regex(await page.locator('#agent_key').inputValue(), /^it_mcp_/);
    const key = await h().db('agent_keys').where({ org_id: seed.org_id, name: 'Doomed agent' }).first();
    const made = await page.request.post(url(`/api/apps/${seed.app_id}/free-codes`), {
      data: { code: `FORMS${Date.now().toString(36).toUpperCase()}` },
      headers: { 'x-csrf-token': await csrfOf(page) },
    });
    t.is(made.status(), 201, await made.text());
    const code = await h().db('free_access_codes').where({ app_id: seed.app_id }).orderBy('created_at', 'desc').first();
    const secretBefore = (await h().db('apps').where('id', seed.app_id).first('webhook_secret_hash')).webhook_secret_hash;
    await page.goto(url('/dashboard/agents'));
    for (const [path, fields, question] of [
      [
        `/api/apps/${seed.app_id}/regenerate-webhook-secret`,
        { return_to: `/dashboard/apps/${seed.app_id}` },
        'Regenerate the webhook secret?',
      ],
      [`/dashboard/agents/keys/${key.id}/revoke`, { return_to: '/dashboard/agents' }, 'Revoke the agent key "Doomed agent"?'],
      [
        `/api/apps/${seed.app_id}/free-codes/${code.id}/block`,
        { return_to: '/dashboard/free-codes', blocked: 'true' },
        'Block this free code?',
      ],
    ] as const) {
      const res = await unconfirmedPost(path, fields);
      t.is(res.status(), 200, path);
      t.true((await res.text()).includes(`<h1>${question.replace(/"/g, '&quot;')}</h1>`), `${path}: the confirm page asks first`);
    }
    t.is(
      (await h().db('apps').where('id', seed.app_id).first('webhook_secret_hash')).webhook_secret_hash,
      secretBefore,
      'the secret was not regenerated',
    );
    t.is((await h().db('agent_keys').where('id', key.id).first()).revoked_at, null, 'the key was not revoked');
    t.false((await h().db('free_access_codes').where('id', code.id).first()).blocked, 'the code was not blocked');

    // The confirm page itself (what a browser without JavaScript sees) does it.
    await page.goto(url('/dashboard/agents'));
    const noJs = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await context.storageState(),
      viewport: { width: 390, height: 844 },
    });
    const plain = await noJs.newPage();
    await plain.goto(url('/dashboard/agents'));
    await plain.getByRole('button', { name: 'Revoke Doomed agent' }).click();
    await plain.getByRole('heading', { name: 'Revoke the agent key "Doomed agent"?' }).waitFor();
    await screenshot(plain, 'forms-05-confirm-page-no-js');
    t.is((await h().db('agent_keys').where('id', key.id).first()).revoked_at, null);
    await plain.getByRole('button', { name: 'Revoke Doomed agent' }).click();
    await plain.getByRole('heading', { name: 'Connect an agent' }).waitFor();
    t.regex((await plain.getByRole('status').first().textContent()) ?? '', /Key "Doomed agent" revoked/);
    t.truthy((await h().db('agent_keys').where('id', key.id).first()).revoked_at);
    await noJs.close();
  },
);

test.serial('a batch invite reports each line: the bad one by name and why', async (t) => {
  await page.goto(url('/dashboard/creators'));
  const good = `forms-${Date.now().toString(36)}@example.com`;
  await page.locator(`#inv-batch-${seed.campaign_id}`).fill(`${good}, Robin\nnot-an-email`);
  await page.getByRole('button', { name: 'Send invitations' }).click();
  const flash = page.locator('#flash');
  await flash.waitFor();
  const text = (await flash.textContent()) ?? '';
  t.regex(text, /1 of 2 invitations sent/);
  t.regex(text, new RegExp(`${good.replace(/\./g, '\\.')}: invited`));
  t.regex(text, /not-an-email: not invited\. Not a valid email address\./);
  t.is(
    await h()
      .db('invitations')
      .where({ email: good })
      .count<{ count: string }[]>('* as count')
      .then((r) => Number(r[0]!.count)),
    1,
  );
  await screenshot(page, 'forms-06-batch-report');
});

const PAGES = (creatorId: string) => [
  '/dashboard',
  `/dashboard/apps/${seed.app_id}`,
  `/dashboard/apps/${seed.app_id}/events`,
  `/dashboard/apps/${seed.app_id}/events/history`,
  '/dashboard/campaigns',
  `/dashboard/campaigns/${seed.campaign_id}`,
  `/dashboard/campaigns/${seed.campaign_id}/analytics`,
  '/dashboard/creators',
  `/dashboard/creators/${creatorId}`,
  '/dashboard/invitations',
  '/dashboard/bonus-awards',
  '/dashboard/free-codes',
  '/dashboard/assets',
  '/dashboard/wallet',
  '/dashboard/wallet/ledger',
  '/dashboard/wallet/payouts',
  '/dashboard/wallet/payouts/preview',
  '/dashboard/agents',
  '/dashboard/team',
  '/dashboard/shown-once',
];

test.serial(
  'every dashboard page at 390x844: no horizontal overflow outside a table scroller, no serious or critical axe violation',
  async (t) => {
    const failures: string[] = [];
    const creator = await h().db('creator_codes').where({ campaign_id: seed.campaign_id, code: seed.creator_code }).first('creator_id');
    for (const path of PAGES(creator.creator_id as string)) {
      await page.goto(url(path));
      await page.locator('h1').waitFor();
      failures.push(...(await pageProblems(page, path)));
      await screenshot(page, `forms-390-${path.replace(/\//g, '_').replace(/^_/, '') || 'dashboard'}`);
    }
    t.deepEqual(failures, []);
  },
);

test.serial('the signed-out pages at 390x844 pass the same checks', async (t) => {
  const anon = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p = await anon.newPage();
  const failures: string[] = [];
  for (const path of ['/dashboard/login', '/dashboard/signup', '/dashboard/password-reset']) {
    await p.goto(url(path));
    failures.push(...(await pageProblems(p, path)));
  }
  await anon.close();
  t.deepEqual(failures, []);
});
