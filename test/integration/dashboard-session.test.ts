// Dashboard sign-in: the demo user signs in through the real form, the session cookie is HttpOnly + SameSite=Lax
// and stored only as a digest, CSRF is required on the form and on every state-changing session call, sign-in is
// rate limited, sign-out ends the session, and agent or SDK keys on session-only routes stay 401.
import test from 'ava';
import { hashToken } from '../../lib/credentials.js';
import { Browser, inputValue } from '../helpers/browser.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

// TRUST_PROXY: the HTTPS case is a proxy saying `X-Forwarded-Proto: https`.
const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });

async function signIn(browser: Browser, password = seed.user_password, email = seed.user_email) {
  const form = await browser.fetch(`${h().baseUrl}/dashboard/login?return_to=/dashboard`);
  return browser.fetch(`${h().baseUrl}/dashboard/login`, {
    form: { csrf: inputValue(form.text, 'csrf') ?? '', return_to: '/dashboard', email, password },
  });
}

test(
  'the demo user signs in; the cookie is HttpOnly SameSite=Lax ' + 'and only its digest is stored; sign-out needs CSRF and ends it',
  async (t) => {
    const browser = new Browser();
    const page = await browser.fetch(`${h().baseUrl}/dashboard/login`);
    t.is(page.status, 200);
    t.regex(page.text, /name="password"/);
    const done = await signIn(browser);
    t.is(done.status, 303);
    t.is(done.location, `${h().baseUrl}/dashboard`);
    const setCookie = done.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
    t.regex(setCookie, /httponly/i);
    t.regex(setCookie, /samesite=lax/i);
    t.notRegex(setCookie, /secure/i, 'no Secure flag over plain HTTP on loopback');
    const token = browser.cookies.get('svc_session')!;
    t.truthy(await h().db('sessions').where('token_hash', hashToken(token)).first());
    t.falsy(await h().db('sessions').where('token_hash', token).first());

    const home = await browser.fetch(`${h().baseUrl}/dashboard`);
    t.is(home.status, 200);
    t.true(home.text.includes(seed.user_email));
    const info = await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: browser.cookieHeader() } });
    t.is(info.status, 200);
    t.deepEqual(info.body.org_ids, [seed.org_id]);

    // Sign-out without or with a wrong CSRF token: 403, the session lives on.
    t.is((await browser.fetch(`${h().baseUrl}/dashboard/logout`, { form: {} })).status, 403);
    t.is((await browser.fetch(`${h().baseUrl}/dashboard/logout`, { form: { csrf: 'forged' } })).status, 403);
    t.is((await browser.fetch(`${h().baseUrl}/dashboard`)).status, 200);
    const out = await browser.fetch(`${h().baseUrl}/dashboard/logout`, { form: { csrf: info.body.csrf_token } });
    t.is(out.status, 303);
    t.is((await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: `svc_session=${token}` } })).status, 401);
    t.truthy((await h().db('sessions').where('token_hash', hashToken(token)).first()).revoked_at);
  },
);

test('a wrong password re-renders the form with 401; a missing or forged CSRF token on the form is 403', async (t) => {
  const browser = new Browser();
  const wrong = await signIn(browser, 'not-the-password');
  t.is(wrong.status, 401);
  t.regex(wrong.text, /Email or password is wrong/);
  t.false(browser.cookies.has('svc_session'));
  const noCsrf = await browser.fetch(`${h().baseUrl}/dashboard/login`, { form: { email: seed.user_email, password: seed.user_password } });
  t.is(noCsrf.status, 403);
  const forged = await new Browser().fetch(`${h().baseUrl}/dashboard/login`, {
    form: { csrf: 'x', email: seed.user_email, password: seed.user_password },
  });
  t.is(forged.status, 403);
});

test('sign-in is rate limited (10 attempts per 15 minutes per IP and per email)', async (t) => {
  const browser = new Browser();
  const email = `nobody+${Date.now()}@example.com`;
  const statuses: number[] = [];
  for (let i = 0; i < 11; i += 1) statuses.push((await signIn(browser, 'x', email)).status);
  // The other tests of this file sign in from the same IP too: at most 10 answers, then only 429s.
  const firstLimited = statuses.indexOf(429);
  t.true(firstLimited > 0 && firstLimited <= 10);
  t.deepEqual(statuses.slice(firstLimited), Array(11 - firstLimited).fill(429));
  t.deepEqual(statuses.slice(0, firstLimited), Array(firstLimited).fill(401));
});

test('a session call that changes state needs the CSRF header; agent and SDK keys on session-only routes stay 401', async (t) => {
  const browser = new Browser();
  await signIn(browser);
  const info = await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: browser.cookieHeader() } });
  const res = await request(h().baseUrl, 'POST', '/api/apps/whatever', { body: {}, headers: { cookie: browser.cookieHeader() } });
  t.is(res.status, 403);
  t.regex(res.body.detail, /CSRF/);
  const withCsrf = await request(h().baseUrl, 'POST', '/api/apps/whatever', {
    body: {},
    headers: { cookie: browser.cookieHeader(), 'x-csrf-token': info.body.csrf_token },
  });
  t.not(withCsrf.status, 403);
  for (const token of [seed.agent_key, seed.sdk_key]) {
    t.is((await request(h().baseUrl, 'GET', '/dashboard/session', { token })).status, 401);
    t.is((await request(h().baseUrl, 'GET', '/api/apps/x', { token })).status, 401);
  }
});

test('under HTTPS (behind a trusted proxy) the session cookie is Secure', async (t) => {
  const browser = new Browser();
  const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
  const form = await browser.fetch(`${h().baseUrl}/dashboard/login`, { headers: https });
  const done = await browser.fetch(`${h().baseUrl}/dashboard/login`, {
    headers: https,
    form: { csrf: inputValue(form.text, 'csrf') ?? '', email: seed.user_email, password: seed.user_password },
  });
  t.is(done.status, 303);
  t.regex(
    done.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!,
    /;\s*secure/i,
  );
});
