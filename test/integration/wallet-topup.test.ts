// The signed top-up link's pages in test mode (the default without Stripe): the human picks an amount (bounds
// checked, 422 with the error beside the amount field), confirms, and the wallet is credited once; in the same transaction the
// commissions recorded `unfunded` while the wallet was short are reserved, oldest first, as far as the money goes.
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { assertExactBooks, commissionsOf, conversionsOfUser } from '../helpers/conversions.js';
import { Browser, formAction, inputValue } from '../helpers/browser.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedAccount, seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test);
test.before(async () => {
  await h.ready();
});

const RESERVE = 3_000_000 + 300_000; // 9.99 USD at 30 % plus the 10 % platform fee

async function topupLink(app: SeededApp, amountUsd?: number): Promise<string> {
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'billing', scopes: ['billing:read'] });
  const res = await request(h().baseUrl, 'POST', '/api/agent/wallet/topup-link', {
    token: key.key,
    body: amountUsd === undefined ? {} : { amount_usd: amountUsd },
  });
  if (res.status !== 200) throw new Error(res.text);
  const url = new URL(res.body.url as string);
  return `${url.pathname}${url.search}`;
}

const postForm = (path: string, fields: Record<string, string>) =>
  request(h().baseUrl, 'POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
  });

async function unfundedPurchases(app: SeededApp, users: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const user of users) {
    const res = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription(user, app.creator_code)('initial_purchase'));
    if (res.body.error !== 'insufficient wallet balance') throw new Error(res.text);
    const [c] = await conversionsOfUser(h().db, app.app_id, user);
    ids.push((await commissionsOf(h().db, c.id))[0].id);
  }
  return ids;
}

test('test mode: the human confirms a top-up; the wallet is credited once and waiting commissions are funded oldest first', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const tag = Date.now().toString(36);
  const commissionIds = await unfundedPurchases(app, [`tu-a-${tag}`, `tu-b-${tag}`, `tu-c-${tag}`]);
  const link = await topupLink(app, 25);

  const page = await request(h().baseUrl, 'GET', link, { headers: { accept: 'text/html' } });
  t.is(page.status, 200);
  t.regex(page.text, /Test mode: no real money moves/);
  t.regex(page.text, /value="25"/);
  t.regex(page.headers.get('content-security-policy') ?? '', /form-action 'self'/);

  // 10 USD covers three reservations of 3.30 USD: all three, oldest first.
  const started = await postForm(link, { amount_usd: '10' });
  t.is(started.status, 200, started.text);
  const action = /<form method="post" action="([^"]+)"/.exec(started.text)?.[1];
  const token = /name="token" value="([^"]+)"/.exec(started.text)?.[1];
  t.truthy(action);
  t.deepEqual(
    await getWalletTotals(h().db, app.org_id),
    { balanceMicros: 0, reservedMicros: 0, safeAvailableMicros: 0 },
    'starting a payment credits nothing',
  );

  t.is((await postForm(action!, { token: 'tup_forged' })).status, 403, 'a wrong confirmation token credits nothing');
  const posted = await postForm(action!, { token: token! });
  t.is(posted.status, 303, 'Post/Redirect/Get: the confirmation redirects to the payment page');
  const confirmed = await request(h().baseUrl, 'GET', posted.headers.get('location')!, { headers: { accept: 'text/html' } });
  t.is(confirmed.status, 200, confirmed.text);
  t.regex(confirmed.text, /Credited \$10\.00 USD/);
  t.regex(confirmed.text, /3 waiting commission\(s\) funded/);
  const statuses = await h().db('commissions').whereIn('id', commissionIds).orderBy('created_at').pluck('status');
  t.deepEqual(statuses, ['reserved', 'reserved', 'reserved']);
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 10_000_000,
    reservedMicros: 3 * RESERVE,
    safeAvailableMicros: 10_000_000 - 3 * RESERVE,
  });

  const repeated = await postForm(action!, { token: token! });
  t.is(repeated.status, 303);
  const again = await request(h().baseUrl, 'GET', repeated.headers.get('location')!, { headers: { accept: 'text/html' } });
  t.regex(again.text, /credited before/);
  t.is((await h().db('wallet_ledger').where({ org_id: app.org_id, entry_type: 'topup' })).length, 1, 'one topup entry per payment');
  t.is((await request(h().baseUrl, 'GET', link)).status, 410, 'the link was spent when the payment started');
  t.is((await postForm(link, { amount_usd: '10' })).status, 410);
  await assertExactBooks(t, h().db, app.org_id);
});

test('catch-up stops at the first commission the money cannot cover: an older one is never skipped for a newer one', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const tag = Date.now().toString(36);
  const [first, second] = (await unfundedPurchases(app, [`cu-a-${tag}`, `cu-b-${tag}`])) as [string, string];
  const link = await topupLink(app);
  const started = await postForm(link, { amount_usd: '5' }); // covers one reservation of 3.30, not two
  t.is(started.status, 422, 'below the minimum');
  t.regex(
    started.text,
    /id="amount_usd-error">The amount must be between \$10\.00 USD and \$50000\.00 USD/,
    'the error sits beside the field, in words',
  );
  h().config.TOPUP_MIN_USD = 1;
  try {
    const ok = await postForm(link, { amount_usd: '5' });
    const action = /<form method="post" action="([^"]+)"/.exec(ok.text)![1]!;
    const token = /name="token" value="([^"]+)"/.exec(ok.text)![1]!;
    await postForm(action, { token });
  } finally {
    h().config.TOPUP_MIN_USD = 10;
  }
  t.deepEqual(await h().db('commissions').whereIn('id', [first, second]).orderBy('created_at').pluck('status'), ['reserved', 'unfunded']);
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 5_000_000,
    reservedMicros: RESERVE,
    safeAvailableMicros: 5_000_000 - RESERVE,
  });
  await assertExactBooks(t, h().db, app.org_id);
});

test(
  'an amount that is not a number or out of bounds is 422 with the ' +
    'error beside the field and the typed value kept, and the link stays usable',
  async (t) => {
    const app = await seedApp(h().db, { walletUsd: 0 });
    const link = await topupLink(app);
    for (const amount of ['abc', '', '10.999', '50001', '-5']) {
      const res = await postForm(link, { amount_usd: amount });
      t.is(res.status, 422, amount);
      t.regex(res.text, /<p class="field-error" id="amount_usd-error">/, amount);
      if (amount)
        t.regex(res.text, new RegExp(`name="amount_usd"[^>]*value="${amount.replace('.', '\\.')}"`), `what was typed is kept: ${amount}`);
    }
    t.is((await request(h().baseUrl, 'GET', link)).status, 200, 'no payment started: the link is not spent');
    t.is((await h().db('payments').where({ org_id: app.org_id })).length, 0);
  },
);

test('a signed-in browser uses the link like any other: its pages act on the link and the token, not the session', async (t) => {
  const account = await seedAccount(h().db);
  const browser = new Browser();
  const login = await browser.fetch(`${h().baseUrl}/dashboard/login?return_to=/dashboard`);
  await browser.fetch(`${h().baseUrl}/dashboard/login`, {
    form: {
      csrf: inputValue(login.text, 'csrf') ?? '',
      return_to: '/dashboard',
      email: account.user_email,
      password: account.user_password,
    },
  });
  t.true(
    [...browser.cookies.keys()].some((name) => /session/.test(name)),
    'signed in',
  );
  const link = await request(h().baseUrl, 'POST', '/api/agent/wallet/topup-link', { token: account.agent_key, body: {} });
  const started = await browser.fetch(link.body.url as string, { form: { amount_usd: '20' } });
  t.is(started.status, 200, started.text);
  const confirmed = await browser.follow(formAction(started.text, h().baseUrl), undefined, {
    form: { token: inputValue(started.text, 'token')! },
  });
  t.is(confirmed.status, 200, confirmed.text);
  t.regex(confirmed.text, /Credited \$20\.00 USD/);
});
