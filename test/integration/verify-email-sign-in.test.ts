// Opening the verification link signs the person in only within an hour of the sign-up or in the browser that
// signed up (its cookie); later, elsewhere, it verifies the address and shows the sign-in form saying so. The link
// lives 48 hours and is spent only by the POST of its one-button page: a GET (a mail scanner) never spends it.
import test from 'ava';
import { Browser, formAction, inputValue, type Hop } from '../helpers/browser.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test, { worker: false });
const PASSWORD = 'correct horse battery';

async function signUp(browser: Browser, label: string): Promise<{ email: string; link: string }> {
  const email = `${label}+${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const page = await browser.fetch(`${h().baseUrl}/dashboard/signup`);
  const done = await browser.fetch(`${h().baseUrl}/dashboard/signup`, {
    form: { csrf: inputValue(page.text, 'csrf') ?? '', org_name: `Org ${label}`, email, password: PASSWORD },
  });
  if (done.status !== 200) throw new Error(`sign-up ${done.status}: ${done.text}`);
  const mail = await h().db('email_outbox').where({ to_address: email, template: 'account_verify_email' }).first();
  return { email, link: /(http\S+)/.exec(mail.body_text as string)![1]! };
}

/** Opens the link (GET: the one-button page) and presses the button (POST). */
async function verify(browser: Browser, link: string): Promise<Hop> {
  const page = await browser.fetch(link);
  if (page.status !== 200) throw new Error(`verify page ${page.status}: ${page.text}`);
  return browser.fetch(formAction(page.text, link), { form: { csrf: inputValue(page.text, 'csrf') ?? '' } });
}

const signedIn = async (browser: Browser) => (await browser.fetch(`${h().baseUrl}/dashboard/session`)).status === 200;
const tokenRow = (email: string) => h().db('account_tokens').where({ email, purpose: 'verify_email' }).first();
/** Moves the sign-up back in time (the window is measured from the account's creation). */
const signedUpAgo = (email: string, ms: number) =>
  h()
    .db('users')
    .where('email', email)
    .update({ created_at: new Date(Date.now() - ms) });

test('within the hour after sign-up the link signs in, in any browser', async (t) => {
  const { email, link } = await signUp(new Browser(), 'window');
  await signedUpAgo(email, 50 * 60_000);
  const phone = new Browser();
  const res = await verify(phone, link);
  t.is(res.status, 303, res.text);
  t.is(res.location, `${h().baseUrl}/dashboard`);
  t.true(await signedIn(phone));
  t.truthy((await h().db('users').where('email', email).first()).email_verified_at);
});

test('after the hour, in another browser: verified, then the sign-in form says so and no session is opened', async (t) => {
  const { email, link } = await signUp(new Browser(), 'late');
  await signedUpAgo(email, 2 * 3600_000);
  const other = new Browser();
  const res = await verify(other, link);
  t.is(res.status, 200);
  t.regex(res.text, /<h1>Sign in<\/h1>/);
  t.regex(res.text, new RegExp(`${email.replace(/[.+]/g, '\\$&')} is verified\\. Sign in with your password`));
  t.is(inputValue(res.text, 'email'), email, 'the address is filled in');
  t.false(await signedIn(other));
  t.truthy((await h().db('users').where('email', email).first()).email_verified_at);
  t.truthy((await tokenRow(email)).used_at, 'the link is spent');
  // The password then signs in.
  const form = await other.fetch(`${h().baseUrl}/dashboard/login`);
  const login = await other.fetch(`${h().baseUrl}/dashboard/login`, {
    form: { csrf: inputValue(form.text, 'csrf') ?? '', email, password: PASSWORD, return_to: '/dashboard' },
  });
  t.is(login.status, 303);
  t.true(await signedIn(other));
});

test('the browser that signed up is signed in whenever the link is used; its cookie is worth nothing for another address', async (t) => {
  const browser = new Browser();
  const { email, link } = await signUp(browser, 'same');
  t.truthy(browser.cookies.get('svc_signup'), 'the sign-up answer left its cookie');
  // Someone else's sign-up cookie, carried into the browser that opens a late link of another address.
  const stranger = new Browser();
  const theirs = await signUp(stranger, 'stranger');
  await signedUpAgo(email, 40 * 3600_000);
  await signedUpAgo(theirs.email, 40 * 3600_000);
  stranger.cookies.set('svc_signup', browser.cookies.get('svc_signup')!);
  const refused = await verify(stranger, theirs.link);
  t.is(refused.status, 200, 'another address: the sign-in form');
  t.false(await signedIn(stranger));

  const res = await verify(browser, link);
  t.is(res.status, 303, res.text);
  t.true(await signedIn(browser));
  t.false(browser.cookies.has('svc_signup'), 'used once, the cookie is gone');
});

test('a GET of the link never spends it, however often; only the POST does, once', async (t) => {
  const { email, link } = await signUp(new Browser(), 'scanner');
  for (let i = 0; i < 3; i += 1) {
    const page = await new Browser().fetch(link);
    t.is(page.status, 200);
    t.regex(page.text, /Verify my email/);
  }
  t.is((await tokenRow(email)).used_at, null, 'three GETs spent nothing');
  t.is((await h().db('users').where('email', email).first()).email_verified_at, null, 'and verified nothing');
  t.is((await h().db('sessions').join('users', 'users.id', 'sessions.user_id').where('users.email', email)).length, 0);
  const browser = new Browser();
  t.is((await verify(browser, link)).status, 303);
  t.truthy((await tokenRow(email)).used_at);
  t.is((await browser.fetch(link)).status, 410, 'then the link opens as used');
});
