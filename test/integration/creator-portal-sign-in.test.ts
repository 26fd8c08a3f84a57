// Signing in to the creator portal over real HTTP (docs/creator-portal.md "Sign-in"): the link is mailed only to an
// address a creator joined with, while the answer is the same for any address; opening the link spends nothing
// (mail scanners), its confirm POST spends it once and opens the creator's own session (cookie path
// /dashboard/creator) and verifies the address; a used or expired link is refused; requests are limited per
// address and per IP; a creator without an address cannot get a link.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { Browser } from '../helpers/browser.js';
import { latestSignInLink, mailsTo } from '../helpers/creator-mail.js';
import { askForLink, confirmLink, signInCreator } from '../helpers/creator-portal.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp } from '../helpers/seed.js';

const h = useHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
let n = 0;
const nextIp = () => `203.0.113.${(n += 1)}`;
const url = (p: string) => `${h().baseUrl}${p}`;
const creatorEmail = async (creatorId: string) => (await h().db('creators').where('id', creatorId).first('email')).email as string;

test('the answer is the same for a known and an unknown address; only the known one gets a link', async (t) => {
  const app = await seedApp(h().db);
  const known = await creatorEmail(app.creator_id);
  const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
  const a = await askForLink(h().baseUrl, new Browser(), known.toUpperCase(), nextIp());
  const b = await askForLink(h().baseUrl, new Browser(), unknown, nextIp());
  t.is(a.status, 200);
  t.is(b.status, 200);
  const words = (text: string, email: string) =>
    text
      .replace(email, 'EMAIL')
      .replace(/name="csrf" value="[^"]*"/g, '')
      .replace(/nonce="[^"]*"/g, '');
  t.is(words(a.text, known.toUpperCase()), words(b.text, unknown), 'the same page whether or not the address joined');
  t.truthy(await latestSignInLink(h().db, known), 'the address is matched case-insensitively');
  t.deepEqual(await mailsTo(h().db, unknown), [], 'no mail to an unknown address');
});

test(
  'opening the link spends nothing; the confirm POST spends ' + 'it once, opens a portal-only session and verifies the address',
  async (t) => {
    const app = await seedApp(h().db);
    const email = await creatorEmail(app.creator_id);
    await askForLink(h().baseUrl, new Browser(), email, nextIp());
    const link = (await latestSignInLink(h().db, email))!;
    t.regex(link, /^http:\/\/127\.0\.0\.1:\d+\/dashboard\/creator\/sign-in\/confirm\?token=csl_/);
    const scanner = new Browser();
    for (let i = 0; i < 2; i++) t.is((await scanner.fetch(link)).status, 200, 'a scanner fetching the link twice still leaves it usable');
    t.is((await h().db('creators').where('id', app.creator_id).first()).email_verified_at, null);

    const browser = new Browser();
    const page = await browser.fetch(link);
    const done = await confirmLink(browser, link);
    t.is(done.status, 303);
    t.is(done.location, url('/dashboard/creator'));
    const setCookie = done.headers.getSetCookie().find((c) => c.startsWith('svc_creator='))!;
    t.regex(setCookie, /path=\/dashboard\/creator;/i, 'the cookie is sent to the portal only');
    t.regex(setCookie, /httponly/i);
    t.regex(setCookie, /samesite=lax/i);
    t.regex(browser.cookies.get('svc_creator')!, /^crs_/);
    t.truthy((await h().db('creators').where('id', app.creator_id).first()).email_verified_at, 'the first sign-in verifies the address');
    const home = await browser.fetch(url('/dashboard/creator'));
    t.is(home.status, 200);
    t.true(home.text.includes('Test campaign'));

    const again = await new Browser().fetch(url('/dashboard/creator/sign-in/confirm'), {
      form: { csrf: /name="csrf" value="([^"]*)"/.exec(page.text)![1]!, token: new URL(link).searchParams.get('token')! },
      headers: { cookie: browser.cookieHeader() },
    });
    t.is(again.status, 410, 'a used link is refused');
    t.is((await scanner.fetch(link)).status, 410, 'and its page says so');
    t.is((await h().db('creator_sessions').where('creator_id', app.creator_id)).length, 1, 'one session');
  },
);

test("a link older than 15 minutes is refused; a confirm without the page's CSRF token is 403 and spends nothing", async (t) => {
  const app = await seedApp(h().db);
  const email = await creatorEmail(app.creator_id);
  await askForLink(h().baseUrl, new Browser(), email, nextIp());
  const link = (await latestSignInLink(h().db, email))!;
  const row = await h().db('creator_sign_in_tokens').where('creator_id', app.creator_id).first();
  t.true(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime() === 15 * 60_000, 'valid 15 minutes');
  const forged = await new Browser().fetch(url('/dashboard/creator/sign-in/confirm'), {
    form: { token: new URL(link).searchParams.get('token')! },
  });
  t.is(forged.status, 403);
  t.is((await h().db('creator_sign_in_tokens').where('id', row.id).first()).used_at, null);
  await h()
    .db('creator_sign_in_tokens')
    .where('id', row.id)
    .update({ expires_at: h().db.raw("now() - interval '1 second'") });
  const late = await confirmLink(new Browser(), link);
  t.is(late.status, 410);
  t.is((await h().db('creator_sessions').where('creator_id', app.creator_id)).length, 0);
});

test('link requests are limited per address (5 per 15 minutes) and per IP (20), known or not', async (t) => {
  const app = await seedApp(h().db);
  const email = await creatorEmail(app.creator_id);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await askForLink(h().baseUrl, new Browser(), email, nextIp())).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 200, 429], 'per address, whatever the IP');
  const limited = await askForLink(h().baseUrl, new Browser(), email, nextIp());
  t.is(limited.headers.get('retry-after'), '900');
  t.regex(limited.text, /id="email-error" class="error">Too many sign-in links/, 'said beside the field');
  t.true(limited.text.includes(`value="${email}"`), 'what was typed is kept');
  t.is((await mailsTo(h().db, email)).length, 5, 'no mail past the limit');
  const ip = nextIp();
  const fromOneIp: number[] = [];
  for (let i = 0; i < 21; i++)
    fromOneIp.push((await askForLink(h().baseUrl, new Browser(), `x${i}-${randomBytes(3).toString('hex')}@example.com`, ip)).status);
  t.is(fromOneIp.filter((s) => s === 200).length, 20);
  t.is(fromOneIp.at(-1), 429, 'per IP, unknown addresses included');
});

test('a creator without an email cannot get a link; a bad address is 422 with the typed text kept', async (t) => {
  const app = await seedApp(h().db);
  await h().db('creators').where('id', app.creator_id).update({ email: null });
  const bad = await askForLink(h().baseUrl, new Browser(), 'not-an-address', nextIp());
  t.is(bad.status, 422);
  t.true(bad.text.includes('value="not-an-address"'));
  t.regex(bad.text, /id="email-error"/);
  t.is(await h().db('creator_sign_in_tokens').where('creator_id', app.creator_id).first(), undefined);
});

test('signing out ends the session', async (t) => {
  const app = await seedApp(h().db);
  const s = await signInCreator(h().baseUrl, h().db, await creatorEmail(app.creator_id), nextIp());
  const home = await s.browser.fetch(url('/dashboard/creator'));
  const csrf = /action="\/dashboard\/creator\/sign-out"><input type="hidden" name="csrf" value="([^"]*)"/.exec(home.text)?.[1];
  t.truthy(csrf);
  t.is((await s.browser.fetch(url('/dashboard/creator/sign-out'), { form: { csrf: 'wrong' } })).status, 403);
  const out = await s.browser.fetch(url('/dashboard/creator/sign-out'), { form: { csrf: csrf! } });
  t.is(out.status, 303);
  const after = await new Browser().fetch(url('/dashboard/creator'), { headers: { cookie: `svc_creator=${s.token}` } });
  t.is(after.status, 302, 'the revoked session is no session: back to sign-in');
  t.is(after.location, url('/dashboard/creator/sign-in'));
});
