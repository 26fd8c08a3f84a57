// POST /api/webhooks/purchase: a one-time purchase reported by the developer's own server (spec "Inbound
// webhooks", direct). Auth is the app's server-side purchase API key (it_srv_...); the purchase enters the same
// conversion pipeline as a NON_RENEWING_PURCHASE keyed on its transaction id; prices in other currencies are converted
// to USD at the ECB rate (a local stub of the ECB's XML).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { generateToken, PURCHASE_API_KEY_PREFIX } from '../../lib/credentials.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { businessDays, startEcbStub } from '../stubs/ecb-rates.js';

const { h, seed } = useSeededHarness(test);
let app: SeededApp;

test.before(async () => {
  await h.ready();
  app = await seedApp(h().db, { orgId: seed.org_id });
});

const purchase = (overrides: Record<string, unknown> = {}) => ({
  transaction_id: `GPA.${randomUUID()}`,
  app_user_id: `u-${randomUUID()}`,
  product_id: 'coins_500',
  price: 19.99,
  currency: 'USD',
  svc_code: app.creator_code,
  platform: 'android',
  ...overrides,
});
const post = (body: unknown, authorization?: string) =>
  request(h().baseUrl, 'POST', '/api/webhooks/purchase', { body, headers: authorization ? { authorization } : {} });
const report = (body: unknown) => post(body, `Bearer ${app.purchase_api_key}`);
const conversionsOf = (key: string) => h().db('conversions').where({ app_id: app.app_id, conversion_key: key });
const commissionsOf = (conversionId: string) => h().db('commissions').where('conversion_id', conversionId);

test("only the app's purchase API key is accepted; other credentials are 401 without echoing them", async (t) => {
  const wrongKey = generateToken(PURCHASE_API_KEY_PREFIX);
  const rejected: [string, string | undefined][] = [
    ['no Authorization', undefined],
    ['the public SDK key', `Bearer ${app.sdk_key}`],
    ['the webhook secret', `Bearer ${app.webhook_secret}`],
    ['an agent key of the org', `Bearer ${seed.agent_key}`],
    ['an unknown purchase key', `Bearer ${wrongKey}`],
  ];
  for (const [label, authorization] of rejected) {
    const body = purchase();
    const res = await post(body, authorization);
    t.is(res.status, 401, `${label}: ${res.text}`);
    t.is(typeof res.body.detail, 'string', label);
    t.regex(res.body.detail, /server API key/, label);
    for (const secret of [app.sdk_key, app.webhook_secret, seed.agent_key, wrongKey, app.purchase_api_key])
      t.false(res.text.includes(secret), label);
    t.is((await conversionsOf(body.transaction_id)).length, 0, label);
  }

  for (const authorization of [`bearer ${app.purchase_api_key}`, app.purchase_api_key, `  Bearer   ${app.purchase_api_key} `]) {
    const res = await post(purchase(), authorization);
    t.is(res.status, 200, `${authorization}: ${res.text}`);
  }
});

test('every bad field is listed in one 422', async (t) => {
  const missing = await report({});
  t.is(missing.status, 422, missing.text);
  const fields = (res: { body: { detail: { loc: string[] }[] } }) => res.body.detail.map((p) => p.loc.join('.')).sort();
  t.deepEqual(
    fields(missing),
    ['app_user_id', 'currency', 'platform', 'price', 'product_id', 'svc_code', 'transaction_id'].map((f) => `body.${f}`),
  );
  t.true(missing.body.detail.every((p: { type: string }) => p.type === 'missing'));

  const wrong = await report({
    transaction_id: '',
    app_user_id: 5,
    product_id: null,
    price: -1,
    currency: 'US',
    svc_code: 7,
    platform: 'web',
  });
  t.is(wrong.status, 422, wrong.text);
  t.deepEqual(
    fields(wrong),
    ['app_user_id', 'currency', 'platform', 'price', 'product_id', 'svc_code', 'transaction_id'].map((f) => `body.${f}`),
  );

  for (const [field, value] of [
    ['price', '19.99'],
    ['price', null],
    ['platform', 'IOS'],
    ['currency', 'US$'],
    ['transaction_id', 42],
  ] as const) {
    const res = await report(purchase({ [field]: value }));
    t.is(res.status, 422, `${field}=${JSON.stringify(value)}: ${res.text}`);
    t.deepEqual(fields(res), [`body.${field}`]);
  }
  t.is((await h().db('purchase_events').where({ app_id: app.app_id, source: 'direct' }).whereIn('transaction_id', ['', '42'])).length, 0);
});

test('values that could never be stored are 422, not a stalled conversion', async (t) => {
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [{ price: 1e20 }, ['body', 'price']],
    [{ transaction_id: 'tx\u0000nul' }, ['body', 'transaction_id']],
    [{ note: 'kept in the event log \u0000' }, ['body', 'note']],
    [{ extra: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) }, ['body', 'extra']],
  ];
  for (const [overrides, loc] of cases) {
    const body = purchase(overrides);
    const res = await report(body);
    t.is(res.status, 422, res.text.slice(0, 300));
    t.deepEqual(res.body.detail[0].loc.slice(0, loc.length), loc);
  }
  t.is((await report(purchase({ price: 0.01 }))).status, 200);
});

test('a body that is not JSON is 400 with the key, 401 without it', async (t) => {
  const raw = (authorization?: string) =>
    request(h().baseUrl, 'POST', '/api/webhooks/purchase', {
      rawBody: '{"transaction_id": ',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    });
  const authed = await raw(`Bearer ${app.purchase_api_key}`);
  t.is(authed.status, 400, authed.text);
  t.is(authed.body.detail, 'Request body is not valid JSON.');
  t.is((await raw()).status, 401);
  t.is((await raw(`Bearer ${app.sdk_key}`)).status, 401);
});

test(
  'another currency is converted at the ECB rate of the latest ' +
    'published day (stored with the purchase); no rate is 503 and nothing recorded',
  async (t) => {
    const ecb = await startEcbStub();
    const today = new Date().toISOString().slice(0, 10);
    for (const [day, rates] of businessDays(new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10), today, {
      USD: '1.1000',
      JPY: '160.00',
    }))
      ecb.days.set(day, rates);
    const saved = h().config.FX_RATES_URL;
    h().config.FX_RATES_URL = ecb.url;
    try {
      const eur = purchase({ currency: 'eur', price: 10 });
      const res = await report(eur);
      t.is(res.status, 200, res.text);
      const event = await h().db('purchase_events').where('id', res.body.event_id).first();
      t.like(event, {
        currency: 'EUR',
        price_in_purchased_currency: '10',
        price_usd_micros: 11_000_000,
        fx_rate: '1.1',
        fx_source: ecb.url,
      });
      t.true(event.fx_rate_date <= today);
      const [conversion] = await conversionsOf(eur.transaction_id);
      t.like(await commissionsOf(conversion.id).first(), { revenue_usd_micros: 11_000_000, commission_micros: 3_300_000 });

      const jpy = await report(purchase({ currency: 'JPY', price: 1600 }));
      t.is(jpy.status, 200, jpy.text);
      t.is((await h().db('purchase_events').where('id', jpy.body.event_id).first()).price_usd_micros, 11_000_000);
      t.is(ecb.requests['eurofxref-hist-90d.xml'], 1, 'one read of the rates served both (cached per day and currency)');

      const gold = purchase({ currency: 'XAU' });
      const none = await report(gold);
      t.is(none.status, 503, none.text);
      t.regex(none.body.detail, /^No exchange rate for XAU on or before/);
      t.is((await conversionsOf(gold.transaction_id)).length, 0);
      t.is(await h().db('purchase_events').where({ transaction_id: gold.transaction_id }).first(), undefined);
    } finally {
      h().config.FX_RATES_URL = saved;
      await ecb.close();
    }
    const usd = await report(purchase({ currency: 'usd' }));
    t.is(usd.status, 200, usd.text);
  },
);

test.serial('a valid purchase with the creator code creates an attributed one-time conversion earning 30% of the price', async (t) => {
  const body = purchase({ price: 19.99, platform: 'ios' });
  const before = await getWalletTotals(h().db, seed.org_id);
  const res = await report(body);
  t.is(res.status, 200, res.text);
  t.deepEqual(res.body, { received: true, event_id: res.body.event_id });
  t.regex(res.body.event_id, /^pev_/);

  const [conversion, ...more] = await conversionsOf(body.transaction_id);
  t.is(more.length, 0);
  t.like(conversion, {
    kind: 'one_time',
    conversion_key: body.transaction_id,
    attributed: true,
    referral_code: app.creator_code,
    campaign_id: app.campaign_id,
    creator_id: app.creator_id,
    app_user_id: body.app_user_id,
    product_id: 'coins_500',
    store: 'APP_STORE',
    environment: 'PRODUCTION',
    workflow_id: `conversion/${app.app_id}/${body.transaction_id}`,
  });
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    source: 'direct',
    event_type: 'NON_RENEWING_PURCHASE',
    transaction_id: body.transaction_id,
    conversion_id: conversion.id,
    attributed: true,
    processing_status: 'processed',
  });
  const commissions = await commissionsOf(conversion.id);
  t.is(commissions.length, 1);
  t.like(commissions[0], { kind: 'earn', status: 'reserved', revenue_usd_micros: 19_990_000, commission_micros: 6_000_000 });
  const after = await getWalletTotals(h().db, seed.org_id);
  t.is(after.reservedMicros - before.reservedMicros, commissions[0].commission_micros + commissions[0].platform_fee_micros);

  // Reported again (a retry of the developer's server): the same event, nothing new.
  const again = await report(body);
  t.deepEqual(again.body, res.body);
  const changed = await report({ ...body, price: 99, app_user_id: 'someone-else' });
  t.is(changed.body.event_id, res.body.event_id, 'the transaction id is the identity of a one-time purchase');
  t.is((await conversionsOf(body.transaction_id)).length, 1);
  t.is((await commissionsOf(conversion.id)).length, 1);
  t.is((await h().db('purchase_events').where({ app_id: app.app_id, transaction_id: body.transaction_id })).length, 1);
  t.deepEqual(await getWalletTotals(h().db, seed.org_id), after);
});

test('the code is cleaned up like every code (case, stray characters)', async (t) => {
  const body = purchase({ svc_code: ` ${app.creator_code.toLowerCase()} ` });
  const res = await report(body);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error);
  t.like((await conversionsOf(body.transaction_id))[0], { attributed: true, referral_code: app.creator_code });
});

test('two different transactions of one user are two conversions with a commission each', async (t) => {
  const user = `u-${randomUUID()}`;
  const a = purchase({ app_user_id: user, price: 4.99 });
  const b = purchase({ app_user_id: user, price: 9.99 });
  const [ra, rb] = [await report(a), await report(b)];
  t.is(ra.status, 200, ra.text);
  t.is(rb.status, 200, rb.text);
  t.not(ra.body.event_id, rb.body.event_id);
  const conversions = await h().db('conversions').where({ app_id: app.app_id, app_user_id: user }).orderBy('created_at');
  t.deepEqual(conversions.map((c: { conversion_key: string }) => c.conversion_key).sort(), [a.transaction_id, b.transaction_id].sort());
  t.true(conversions.every((c: { kind: string; attributed: boolean }) => c.kind === 'one_time' && c.attributed));
  const commissions = await h()
    .db('commissions')
    .whereIn(
      'conversion_id',
      conversions.map((c: { id: string }) => c.id),
    );
  t.deepEqual(
    commissions.map((c: { commission_micros: number }) => c.commission_micros).sort((x: number, y: number) => x - y),
    [1_500_000, 3_000_000],
  );
});

test('concurrent reports of one transaction record it once', async (t) => {
  const body = purchase();
  const answers = await Promise.all(Array.from({ length: 20 }, () => report(body)));
  t.true(
    answers.every((a) => a.status === 200),
    answers.find((a) => a.status !== 200)?.text,
  );
  t.is(new Set(answers.map((a) => a.body.event_id)).size, 1);
  const [conversion, ...more] = await conversionsOf(body.transaction_id);
  t.is(more.length, 0);
  t.is((await commissionsOf(conversion.id)).length, 1);
});

test("unknown and empty codes answer the spec's processing errors", async (t) => {
  const unknown = await report(purchase({ svc_code: 'NOSUCHCODE' }));
  t.is(unknown.status, 200, unknown.text);
  t.true(unknown.body.error?.startsWith('affiliate not found for code'), unknown.text);
  const organic = await report(purchase({ svc_code: '' }));
  t.is(organic.status, 200, organic.text);
  t.deepEqual(organic.body, { received: true, error: 'no referral code (organic purchase)', event_id: organic.body.event_id });
});

test("the purchase key decides the app: another app's key records the purchase for that app", async (t) => {
  const body = purchase();
  const res = await post(body, `Bearer ${(await seedApp(h().db, { orgId: seed.org_id })).purchase_api_key}`);
  t.is(res.status, 200, res.text);
  t.true(res.body.error?.startsWith('affiliate not found for code'), "this app's code means nothing to the other app");
  t.is((await conversionsOf(body.transaction_id)).length, 0);
});
