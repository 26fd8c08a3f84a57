// Accounts through the email outbox: sign-up creates an organization owned by the new user, who signs in only after
// opening the verification link from the queued email; a password reset works once and ends other sessions; an
// owner invites a teammate, who sets a password through the invitation link and lands in the organization as member.
import test from 'ava';
import { Browser, formAction, inputValue } from '../helpers/browser.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { signInDashboard } from '../helpers/dashboard.js';

const { h, seed } = useSeededHarness(test, { worker: false });

async function postForm(browser: Browser, pagePath: string, action: string, fields: Record<string, string>) {
  const page = await browser.fetch(`${h().baseUrl}${pagePath}`);
  return browser.fetch(`${h().baseUrl}${action}`, { form: { csrf: inputValue(page.text, 'csrf') ?? '', ...fields } });
}

async function linkInEmail(to: string, template: string): Promise<string> {
  const mail = await h().db('email_outbox').where({ to_address: to, template }).orderBy('created_at', 'desc').first();
  return /(http\S+)/.exec(mail.body_text as string)![1]!;
}

async function signIn(browser: Browser, email: string, password: string) {
  return postForm(browser, '/dashboard/login', '/dashboard/login', { email, password, return_to: '/dashboard' });
}

test.serial('sign-up, verification by the emailed link, then sign-in into the new organization as its owner', async (t) => {
  const browser = new Browser();
  const email = `new+${Date.now()}@example.com`;
  const weak = await postForm(browser, '/dashboard/signup', '/dashboard/signup', { org_name: 'Acme', email, password: 'short' });
  t.is(weak.status, 422);
  t.regex(weak.text, /Password: Choose a password of 10 to 200 characters/);
  const done = await postForm(browser, '/dashboard/signup', '/dashboard/signup', {
    org_name: 'Acme',
    email,
    password: 'correct horse battery',
  });
  t.is(done.status, 200);
  t.regex(done.text, /Check your email/);
  const user = await h().db('users').where('email', email).first();
  t.is(user.email_verified_at, null);
  const membership = await h().db('memberships').where('user_id', user.id).first();
  t.is(membership.role, 'owner');
  t.is(
    (await h().db('email_outbox').where({ to_address: email, template: 'account_verify_email' }).first()).org_id,
    null,
    'account emails spend no invitation budget',
  );

  const early = await signIn(browser, email, 'correct horse battery');
  t.is(early.status, 403);
  t.regex(early.text, /Verify your email first/);

  const link = await linkInEmail(email, 'account_verify_email');
  t.true(link.startsWith(`${h().config.DASHBOARD_URL}/verify-email?token=`));
  const page = await browser.fetch(link);
  t.is(page.status, 200);
  t.regex(page.text, /Verify my email/, 'the link opens a page with one button; the GET spends nothing');
  const action = formAction(page.text, link);
  const verified = await browser.fetch(action, { form: { csrf: inputValue(page.text, 'csrf') ?? '' } });
  t.is(verified.status, 303, 'in the browser that signed up, verifying signs in (verify-email-sign-in.test.ts has the rest)');
  t.is(verified.location, `${h().baseUrl}/dashboard`);
  t.is((await new Browser().fetch(link)).status, 410, 'a link works once: another browser finds it used');
  t.is((await browser.fetch(link)).status, 410, 'and then opens as used');

  const signedIn = await signIn(new Browser(), email, 'correct horse battery');
  t.is(signedIn.status, 303, 'the password signs in too');
  const home = await browser.fetch(`${h().baseUrl}/dashboard`);
  t.is(home.status, 200);
  t.regex(home.text, /No app yet/);

  // Signing up again with the same address reveals nothing and creates nothing.
  const again = await postForm(new Browser(), '/dashboard/signup', '/dashboard/signup', {
    org_name: 'Other',
    email,
    password: 'another password',
  });
  t.regex(again.text, /Check your email/);
  t.is((await h().db('memberships').where('user_id', user.id)).length, 1);
});

test.serial('password reset: the emailed link sets a new password once and signs out other sessions', async (t) => {
  const other = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const browser = new Browser();
  const asked = await postForm(browser, '/dashboard/password-reset', '/dashboard/password-reset', { email: seed.user_email });
  t.regex(asked.text, /reset link is on its way/);
  const unknown = await postForm(browser, '/dashboard/password-reset', '/dashboard/password-reset', { email: 'nobody@example.com' });
  t.is(unknown.status, 200, 'same answer for unknown addresses');
  const link = await linkInEmail(seed.user_email, 'account_reset_password');
  const path = new URL(link).pathname;
  const set = await postForm(browser, path, path, { password: 'a brand new password' });
  t.is(set.status, 200);
  t.regex(set.text, /Password changed/);
  t.is((await postForm(browser, '/dashboard/password-reset', path, { password: 'yet another password' })).status, 410);
  t.is((await other.browser.fetch(`${h().baseUrl}/dashboard/session`)).status, 401, 'the other session ended');
  t.is((await signIn(new Browser(), seed.user_email, seed.user_password)).status, 401);
  t.is((await signIn(new Browser(), seed.user_email, 'a brand new password')).status, 303);
  seed.user_password = 'a brand new password';
});

test.serial('an owner invites a teammate by email; the link creates a verified account that joins as member', async (t) => {
  const owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const team = await owner.browser.fetch(`${h().baseUrl}/dashboard/team`);
  t.is(team.status, 200);
  const mate = `mate+${Date.now()}@example.com`;
  const noCsrf = await owner.browser.fetch(`${h().baseUrl}/dashboard/team/invite`, { form: { email: mate, role: 'member' } });
  t.is(noCsrf.status, 403);
  const sent = await owner.browser.fetch(`${h().baseUrl}/dashboard/team/invite`, {
    form: { csrf: owner.csrf, email: mate, role: 'member' },
  });
  t.is(sent.status, 200);
  t.regex(sent.text, /Invitation sent/);
  const mail = await h().db('email_outbox').where({ to_address: mate, template: 'account_invite' }).first();
  t.is(mail.org_id, seed.org_id);
  const link = await linkInEmail(mate, 'account_invite');
  const browser = new Browser();
  const page = await browser.fetch(link);
  t.regex(page.text, /invited to/);
  const accepted = await browser.fetch(link, { form: { csrf: inputValue(page.text, 'csrf') ?? '', password: 'teammate password' } });
  t.is(accepted.status, 200);
  const user = await h().db('users').where('email', mate).first();
  t.truthy(user.email_verified_at);
  t.is((await h().db('memberships').where({ user_id: user.id, org_id: seed.org_id }).first()).role, 'member');
  t.is((await signIn(browser, mate, 'teammate password')).status, 303);
  // A member cannot invite.
  const memberTeam = await browser.fetch(`${h().baseUrl}/dashboard/team`);
  t.regex(memberTeam.text, /Owners and admins invite teammates/);
});
