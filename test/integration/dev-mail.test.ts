// The first hour without a mail server: under svc dev (ApiDeps.devMode) the dev mailbox page lists the outbox to
// this machine only, and does not exist elsewhere; `svc mail --to EMAIL --json` prints an address's mails with their
// links and outbox status (queued, sent through SMTP, failed after the last attempt) in any environment; a GET of a
// single-use link never spends it; verification, password reset and a teammate's invitation work end to end through
// the mailbox page alone; svc dev's console transport writes each mail and its links to stderr.
import test from 'ava';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, closeServer, listen } from '../../api/app.js';
import { createConsoleTransport } from '../../clients/console-mail.js';
import { createSmtpTransport } from '../../clients/smtp.js';
import { deliverDueEmails } from '../../actions/email-outbox.js';
import { startOutboxSender } from '../../jobs/outbox-sender.js';
import { createLogger } from '../../runtime/logger.js';
import { Browser, formAction, inputValue } from '../helpers/browser.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { mailboxLink, mailboxLinks } from '../helpers/dev-mailbox.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startSmtpStub, type SmtpStub } from '../stubs/smtp.js';

const { h, seed } = useSeededHarness(test, { worker: false, devMode: true, env: { TRUST_PROXY: 'true' } });
let smtp: SmtpStub;
test.before(async () => {
  smtp = await startSmtpStub();
});
test.after.always(async () => {
  await smtp?.close();
});

const url = (path: string) => `${h().baseUrl}${path}`;
const tag = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function postForm(browser: Browser, pagePath: string, action: string, fields: Record<string, string>) {
  const page = await browser.fetch(url(pagePath));
  return browser.fetch(url(action), { form: { csrf: inputValue(page.text, 'csrf') ?? '', ...fields } });
}

const signUp = (email: string) =>
  postForm(new Browser(), '/dashboard/signup', '/dashboard/signup', { org_name: 'Mail Org', email, password: 'correct horse battery' });
const svcMail = async (to: string) => {
  const res = await runSvc(['mail', '--to', to, '--json'], cliEnv({ DATABASE_URL: h().database.url }));
  if (res.code !== 0) throw new Error(`svc mail failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as { mails: { to: string; subject: string; created_at: string; status: string; links: string[] }[] };
};

test.serial(
  "svc mail --json: an address's mails newest first with their links, and each outbox status (queued, sent, failed)",
  async (t) => {
    const sent = `sent-${tag()}@example.com`;
    t.is((await signUp(sent)).status, 200);
    t.is(await deliverDueEmails({ db: h().db, send: createSmtpTransport(smtp.url, 'svc <no-reply@svc.test>') }), 1);
    t.deepEqual(smtp.received.at(-1)!.to, [sent]);

    const failed = `failed-${tag()}@example.com`;
    t.is((await signUp(failed)).status, 200);
    smtp.refuse = true;
    try {
      // Each refused attempt backs off; the clock is moved by making the row due again, until the last attempt.
      for (let attempt = 0; attempt < 8; attempt++) {
        await h().db('email_outbox').where('to_address', failed).update({ next_attempt_at: h().db.fn.now() });
        await deliverDueEmails({ db: h().db, send: createSmtpTransport(smtp.url, 'svc <no-reply@svc.test>') });
      }
    } finally {
      smtp.refuse = false;
    }

    const queued = `queued-${tag()}@example.com`;
    t.is((await signUp(queued)).status, 200);
    t.is(
      (await postForm(new Browser(), '/dashboard/verify-email', '/dashboard/verify-email', { email: queued })).status,
      200,
      'a second verification mail',
    );

    const [a, b, c] = await Promise.all([svcMail(sent), svcMail(failed), svcMail(queued.toUpperCase())]);
    t.deepEqual(
      a.mails.map((m) => m.status),
      ['sent'],
    );
    t.deepEqual(
      b.mails.map((m) => m.status),
      ['failed'],
    );
    t.deepEqual(
      c.mails.map((m) => m.status),
      ['queued', 'queued'],
      'any case of the address; both mails',
    );
    for (const m of [...a.mails, ...b.mails, ...c.mails]) {
      t.deepEqual(Object.keys(m).sort(), ['created_at', 'links', 'status', 'subject', 'to']);
      t.is(m.subject, 'Verify your email');
      t.is(m.links.length, 1);
      t.true(m.links[0]!.startsWith(`${h().config.DASHBOARD_URL}/verify-email?token=acct_`), m.links[0]);
      t.false(Number.isNaN(Date.parse(m.created_at)));
    }
    t.is(c.mails[0]!.to, queued);
    t.true(c.mails[0]!.created_at >= c.mails[1]!.created_at, 'newest first');
    t.not(c.mails[0]!.links[0], c.mails[1]!.links[0], 'each mail its own link');
    t.deepEqual(await svcMail(`nobody-${tag()}@example.com`), { mails: [] });
  },
);

test.serial('the dev mailbox answers loopback clients only, and does not exist outside dev mode', async (t) => {
  const email = `box-${tag()}@example.com`;
  await signUp(email);
  const link = await mailboxLink(h().baseUrl, email, '/verify-email?token=');
  t.true(link.startsWith(`${h().config.DASHBOARD_URL}/verify-email?token=`));

  const browser = new Browser();
  const fromAfar = await browser.fetch(url('/dashboard/dev/mailbox'), { headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.is(fromAfar.status, 403, 'a client address that is not loopback');
  t.notRegex(fromAfar.text, /token=/);
  // fetch() will not send another Host: node:http does, as a browser would after a DNS rebinding.
  const rebound = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(url('/dashboard/dev/mailbox'), { headers: { host: 'attacker.example:8080' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  t.is(rebound, 403, 'a Host that is not loopback (DNS rebinding)');
  t.is((await browser.fetch(url('/dashboard/dev/mailbox'), { headers: { 'x-forwarded-host': 'attacker.example' } })).status, 403);
  t.is((await browser.fetch(url('/dashboard/dev/mailbox'), { headers: { 'x-forwarded-for': '127.0.0.1' } })).status, 200);

  // The same service without svc dev's flag: no such page.
  const prod = createApp({ ...h().app.context.deps, devMode: false });
  const server = await listen(prod, 0, '127.0.0.1');
  try {
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await new Browser().fetch(`${other}/dashboard/dev/mailbox`);
    t.is(res.status, 404);
    t.notRegex(res.text, /token=/);
  } finally {
    await closeServer(server, 500);
  }
});

test.serial('opening a verification link (GET, any number of times) spends nothing; its one button does, once', async (t) => {
  const email = `scan-${tag()}@example.com`;
  await signUp(email);
  const link = await mailboxLink(h().baseUrl, email, '/verify-email?token=');
  const browser = new Browser();
  for (let i = 0; i < 3; i++) {
    const page = await browser.fetch(link);
    t.is(page.status, 200);
    t.regex(page.text, /<button type="submit">Verify my email<\/button>/);
    t.is(page.headers.get('cache-control'), 'no-store');
  }
  t.is((await new Browser().fetch(link, { method: 'HEAD' })).status, 200);
  const user = await h().db('users').where('email', email).first();
  t.is(user.email_verified_at, null, 'GETs verified nothing');
  t.is((await h().db('account_tokens').where({ user_id: user.id, purpose: 'verify_email' }).first()).used_at, null, 'and spent nothing');

  const page = await browser.fetch(link);
  const action = formAction(page.text, link);
  t.is((await new Browser().fetch(action, { form: { csrf: 'forged' } })).status, 403, "the POST needs the page's CSRF token");
  const done = await browser.fetch(action, { form: { csrf: inputValue(page.text, 'csrf')! } });
  t.is(done.status, 303, 'within the hour of the sign-up the button verifies and signs in');
  t.truthy((await h().db('users').where('id', user.id).first()).email_verified_at);
  const other = new Browser();
  const again = await other.fetch(link);
  t.is(again.status, 410, 'once');
  t.is((await browser.fetch(link)).status, 410);
});

test.serial('password reset end to end through the dev mailbox: GETs spend nothing, the new password signs in', async (t) => {
  const browser = new Browser();
  t.regex(
    (await postForm(browser, '/dashboard/password-reset', '/dashboard/password-reset', { email: seed.user_email })).text,
    /reset link is on its way/,
  );
  const link = await mailboxLink(h().baseUrl, seed.user_email, '/password-reset/');
  t.is((await browser.fetch(link)).status, 200);
  const form = await browser.fetch(link);
  t.is(form.status, 200, 'opening it twice still shows the form');
  t.regex(form.text, /Choose a new password/);
  const set = await browser.fetch(formAction(form.text, link), {
    form: { csrf: inputValue(form.text, 'csrf')!, password: 'the reset password 1' },
  });
  t.regex(set.text, /Password changed/);
  t.is((await browser.fetch(link)).status, 410);
  await t.throwsAsync(signInDashboard(h().baseUrl, seed.user_email, seed.user_password));
  const session = await signInDashboard(h().baseUrl, seed.user_email, 'the reset password 1');
  t.truthy(session.csrf);
  seed.user_password = 'the reset password 1';
});

test.serial(
  "a teammate's invitation end to end through the dev mailbox: the invited address sets a password and signs in as member",
  async (t) => {
    const owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
    const team = await owner.browser.fetch(url('/dashboard/team'));
    const invitee = `mate-${tag()}@example.com`;
    const sent = await owner.browser.fetch(url(`/dashboard/team/invite?org=${seed.org_id}`), {
      form: { csrf: inputValue(team.text, 'csrf')!, email: invitee, role: 'member' },
    });
    t.regex(sent.text, /Invitation sent/);
    const links = await mailboxLinks(h().baseUrl, invitee, '/invite/');
    t.is(links.length, 1);
    const browser = new Browser();
    t.is((await browser.fetch(links[0]!)).status, 200);
    const page = await browser.fetch(links[0]!);
    t.regex(page.text, /Create account and join/, 'a GET spends nothing');
    const joined = await browser.fetch(formAction(page.text, links[0]!), {
      form: { csrf: inputValue(page.text, 'csrf')!, password: 'teammate password 1' },
    });
    t.regex(joined.text, /Your account is ready/);
    const mate = await signInDashboard(h().baseUrl, invitee, 'teammate password 1');
    const home = await mate.browser.fetch(url('/dashboard/team'));
    t.regex(home.text, new RegExp(`${invitee.replace(/[+.]/g, '\\$&')}</td><td>member`));
    t.is((await browser.fetch(links[0]!)).status, 410);
  },
);

test.serial("svc dev's console transport writes each mail with its links to stderr and the outbox records it as sent", async (t) => {
  const email = `console-${tag()}@example.com`;
  await signUp(email);
  // Earlier tests' mails are due too; only this address matters here.
  const written: string[] = [];
  const sender = startOutboxSender(
    h().db,
    createConsoleTransport((text) => written.push(text)),
    createLogger('silent'),
    50,
  );
  try {
    for (let i = 0; i < 100 && !written.some((w) => w.includes(email)); i++) await new Promise((r) => setTimeout(r, 50));
  } finally {
    await sender.stop();
  }
  const line = written.find((w) => w.includes(email))!;
  t.regex(
    line,
    new RegExp(
      `^\\[mail\\] to ${email.replace(/[+.]/g, '\\$&')}: Verify your ` +
        `email\\n  ${h().config.DASHBOARD_URL.replace(/[.]/g, '\\.')}/verify-email\\?token=acct_`,
    ),
  );
  t.deepEqual(
    (await svcMail(email)).mails.map((m) => m.status),
    ['sent'],
  );
});
