// `npm start` (= `svc dev`) from nothing: embedded PostgreSQL, the Temporal dev server with its UI, migrations,
// worker, API, demo seed; operator commands find it from another terminal; Ctrl-C stops the whole tree; a restart
// keeps the data. Also with external PostgreSQL and Temporal, and with a taken port.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { canConnect, freePort } from '../../runtime/ports.js';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import type { SeedResult } from '../../actions/seed.js';
import { Browser, formAction, inputValue } from '../helpers/browser.js';
import { PINNED_NODE_VERSION } from '../../runtime/pinned-node.js';
import { cliEnv, machineNode, runSvc, SVC_BIN } from '../helpers/cli.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { useHarness } from '../helpers/harness.js';
import { createTestDatabase } from '../helpers/database.js';
import { findWorkflowGeneration, recordWorkflowGeneration } from '../../db/workflow-generations.js';
import { CONVERSION_WORKFLOW_GENERATION } from '../../workflows/conversion-messages.js';

const h = useHarness(test, { worker: false, api: false });

interface Dev {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startDev(env: NodeJS.ProcessEnv, flags: string[] = [], node = process.execPath): Dev {
  const child = spawn(node, [SVC_BIN, 'dev', ...flags], { env, cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(dev: Dev, text: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!dev.output().includes(text)) {
    if (Date.now() > deadline || dev.child.exitCode !== null) throw new Error(`did not see "${text}":\n${dev.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function ports() {
  return {
    PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
  };
}

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-dev-test-'));
  chmodSync(dir, 0o755);
  return path.join(dir, 'data');
}

const line = (out: string, label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)?.[1];

test.serial('npm start brings up everything, serves operators, stops cleanly and keeps data across restarts', async (t) => {
  const p = await ports();
  const env = cliEnv({ ...p, SVC_DATA_DIR: tempDataDir() });
  // Started by the machine's node (older on this machine) as `node bin/svc.js dev`: it runs on the pinned one.
  const dev = startDev(env, [], machineNode());
  try {
    await waitFor(dev, 'Ctrl-C stops everything');
    const out = dev.output();
    const api = `http://127.0.0.1:${p.PORT}`;
    t.is(line(out, 'API'), api);
    t.is(line(out, 'Temporal UI'), `http://127.0.0.1:${p.TEMPORAL_UI_PORT}`);
    t.is(line(out, 'MCP'), `${api}/mcp`);
    t.regex(out, /Demo SDK key\s+it_\S+/);
    t.regex(out, /Agent key\s+it_mcp_\S+/);
    t.regex(out, /login: demo\+\S+@example\.com \/ \S+/);
    t.regex(out, /Pipeline check ok/);
    t.is(/^ {2}Node\s+(\S+)$/m.exec(out)?.[1], `v${PINNED_NODE_VERSION}`);
    t.notRegex(out, /Unsupported runtime/);
    const ready = await fetch(`${api}/readyz`);
    t.is(ready.status, 200);
    t.is((await fetch(`http://127.0.0.1:${p.TEMPORAL_UI_PORT}/`)).status, 200);
    // The printed dashboard login works, and the authorization server answers on loopback.
    const [, dashboardUrl, email, password] = /Dashboard\s+(\S+)\s+login: (\S+) \/ (\S+)/.exec(out)!;
    const browser = new Browser();
    const loginPage = await browser.follow(dashboardUrl!);
    t.is(loginPage.status, 200, loginPage.url);
    const signedIn = await browser.follow(formAction(loginPage.text, loginPage.url), undefined, {
      form: {
        csrf: inputValue(loginPage.text, 'csrf')!,
        return_to: inputValue(loginPage.text, 'return_to')!,
        email: email!,
        password: password!,
      },
    });
    t.is(signedIn.status, 200);
    t.true(signedIn.text.includes(email!));
    t.regex(signedIn.text, /<a href="\/dashboard\/apps\/app_\w+">Demo App /, 'the demo user lands on a populated dashboard');
    // The demo opens on its history (actions/demo-history.ts), seeded at this first start.
    t.regex(
      out,
      /Demo history\s+\d+ purchase events \(1 refund\), \d+ clicks, \d+ installs, 3 creators, a payout to [1-9]\d* creator\(s\) \(\d+ held over\); seeded in [\d.]+ s/, // long-line: one regular expression
    );
    t.log(/Demo history.*/.exec(out)?.[0]);
    const demoApp = /<a href="\/dashboard\/apps\/(app_\w+)">Demo App /.exec(signedIn.text)![1]!;
    const demoEvents = await browser.fetch(`${api}/dashboard/apps/${demoApp}/events`);
    t.true((demoEvents.text.match(/data-kind="purchase"/g) ?? []).length >= 10, 'the demo app has purchases');
    // Mail under svc dev: a sign-up's verification mail is printed on stderr and listed on the dev mailbox page.
    const newcomer = `newcomer+${Date.now()}@example.com`;
    const b2 = new Browser();
    const form = await b2.fetch(`${api}/dashboard/signup`);
    t.is(
      (
        await b2.fetch(`${api}/dashboard/signup`, {
          form: { csrf: inputValue(form.text, 'csrf')!, org_name: 'Newcomer', email: newcomer, password: 'a long enough password' },
        })
      ).status,
      200,
    );
    await waitFor(dev, `[mail] to ${newcomer}: Verify your email`, 30_000);
    t.regex(
      dev.output(),
      new RegExp(
        `\\[mail\\] to ${newcomer.replace(/[+.]/g, '\\$&')}: Verify your ` +
          `email\\n  ${api.replace(/[.]/g, '\\.')}/dashboard/verify-email\\?token=acct_`,
      ),
    );
    const mailbox = await new Browser().fetch(`${api}/dashboard/dev/mailbox?to=${encodeURIComponent(newcomer)}`);
    t.is(mailbox.status, 200);
    t.regex(mailbox.text, /verify-email\?token=acct_/);
    const mail = await runSvc(['mail', '--to', newcomer, '--json'], env);
    t.is(mail.code, 0, mail.stderr);
    t.like((JSON.parse(mail.stdout) as { mails: { status: string; subject: string }[] }).mails[0], {
      status: 'sent',
      subject: 'Verify your email',
    });
    const metadata = await fetch(`${api}/.well-known/oauth-authorization-server`);
    t.is(((await metadata.json()) as { issuer: string }).issuer, `${api}/oauth`);

    const seeded = await runSvc(['seed', '--json'], env);
    t.is(seeded.code, 0, seeded.stderr);
    const seed = JSON.parse(seeded.stdout) as SeedResult;
    t.is(seed.base_url, api);
    const fresh = await signInDashboard(api, seed.user_email, seed.user_password);
    const freshEvents = await fetch(`${api}/dashboard/apps/${seed.app_id}/events`, { headers: { cookie: fresh.cookie } });
    t.notRegex(await freshEvents.text(), /data-kind="purchase"/, 'svc seed --json stays empty: no history');
    // The live events page links a purchase to its conversion workflow in the dev server's own Temporal UI.
    const bought = await sendWebhook(
      api,
      seed.app_id,
      seed.webhook_secret,
      subscription('dev-buyer', seed.creator_code)('initial_purchase'),
    );
    t.is(bought.status, 200, bought.text);
    const owner = await signInDashboard(api, seed.user_email, seed.user_password);
    const events = await fetch(`${api}/dashboard/apps/${seed.app_id}/events`, { headers: { cookie: owner.cookie } });
    t.regex(await events.text(), new RegExp(`href="http://127\\.0\\.0\\.1:${p.TEMPORAL_UI_PORT}/namespaces/default/workflows/[^"]+"`));

    dev.child.kill('SIGINT');
    t.is(await dev.exited, 0);
    for (const port of [p.PORT, p.EMBEDDED_PG_PORT, p.TEMPORAL_PORT, p.TEMPORAL_UI_PORT]) {
      t.false(await canConnect(Number(port)), `port ${port} still answers after Ctrl-C`);
    }
    const sdkKey = line(out, 'Demo SDK key');

    const again = startDev(env);
    try {
      await waitFor(again, 'Ctrl-C stops everything');
      t.is(line(again.output(), 'Demo SDK key'), sdkKey, 'the demo account is seeded once');
      const key = await runSvc(['agent-key', 'create', '--org', seed.org_id, '--json'], env);
      t.is(key.code, 0, `the organization seeded before the restart is still there: ${key.stderr}`);
      again.child.kill('SIGTERM');
      t.is(await again.exited, 0);
    } finally {
      again.child.kill('SIGKILL');
    }
  } finally {
    dev.child.kill('SIGKILL');
  }
});

test.serial('with DATABASE_URL and TEMPORAL_ADDRESS set, svc dev uses them and starts nothing embedded', async (t) => {
  const p = await ports();
  const env = cliEnv({
    PORT: p.PORT,
    DATABASE_URL: h().database.url,
    TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS,
    SVC_DATA_DIR: tempDataDir(),
  });
  const dev = startDev(env);
  try {
    await waitFor(dev, 'Ctrl-C stops everything');
    t.is((await fetch(`http://127.0.0.1:${p.PORT}/readyz`)).status, 200);
    t.regex(dev.output(), /\(PostgreSQL: DATABASE_URL\)/);
    t.regex(dev.output(), /external Temporal/);
    const orgs = await h().db('organizations').count<{ count: string }[]>('* as count');
    t.is(Number(orgs[0]!.count), 1, 'the demo account went into the configured database');
    dev.child.kill('SIGINT');
    t.is(await dev.exited, 0);
  } finally {
    dev.child.kill('SIGKILL');
  }
});

test.serial(
  'an older workflow generation stops svc dev with the way out; --reset empties the data folder, --rehydrate moves the runs',
  async (t) => {
    const database = await createTestDatabase();
    t.teardown(() => database.drop());
    await recordWorkflowGeneration(database.db, 'conversion', CONVERSION_WORKFLOW_GENERATION - 1);
    const p = await ports();
    const dataDir = tempDataDir();
    const env = cliEnv({ PORT: p.PORT, DATABASE_URL: database.url, TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS, SVC_DATA_DIR: dataDir });
    const refused = startDev(env);
    t.is(await refused.exited, 1);
    t.regex(refused.output(), /svc dev could not start: The database holds conversion workflows of an older generation/);
    t.regex(refused.output(), /svc workflows rehydrate/);
    t.regex(refused.output(), /svc dev --reset/);

    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'left-over'), 'from an earlier generation');
    const dev = startDev(env, ['--reset', '--rehydrate']);
    try {
      await waitFor(dev, 'Ctrl-C stops everything');
      t.false(existsSync(path.join(dataDir, 'left-over')), 'the data folder was emptied');
      // Open runs of other instances on this shared Temporal (an earlier test's demo history) may be counted too; none
      // of this empty database's is started again.
      t.regex(
        dev.output(),
        new RegExp(`conversion workflows at generation ${CONVERSION_WORKFLOW_GENERATION}: \\d+ open runs terminated, 0 started again`),
      );
      t.is(await findWorkflowGeneration(database.db, 'conversion'), CONVERSION_WORKFLOW_GENERATION);
      dev.child.kill('SIGINT');
      t.is(await dev.exited, 0);
    } finally {
      dev.child.kill('SIGKILL');
    }
  },
);

test.serial('a Temporal profile file (envconfig) gives svc dev its Temporal: no dev server is started', async (t) => {
  const p = await ports();
  const dataDir = tempDataDir();
  const profile = path.join(path.dirname(dataDir), 'temporal.toml');
  writeFileSync(profile, `[profile.default]\naddress = "${h().config.TEMPORAL_ADDRESS}"\n`);
  const dev = startDev(cliEnv({ ...p, DATABASE_URL: h().database.url, TEMPORAL_CONFIG_FILE: profile, SVC_DATA_DIR: dataDir }));
  try {
    await waitFor(dev, 'Ctrl-C stops everything');
    t.is((await fetch(`http://127.0.0.1:${p.PORT}/readyz`)).status, 200);
    t.regex(dev.output(), /\(Temporal: profile\)/);
    t.false(await canConnect(Number(p.TEMPORAL_PORT)), 'no dev server of its own');
    dev.child.kill('SIGINT');
    t.is(await dev.exited, 0);
  } finally {
    dev.child.kill('SIGKILL');
  }
});

test.serial('a taken port stops svc dev before anything starts, naming the variable to set', async (t) => {
  const p = await ports();
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(Number(p.TEMPORAL_UI_PORT), '127.0.0.1', resolve));
  try {
    const dev = startDev(cliEnv({ ...p, SVC_DATA_DIR: tempDataDir() }));
    t.is(await dev.exited, 1);
    t.regex(dev.output(), /port \d+ is already in use\. Set TEMPORAL_UI_PORT/);
    t.false(await canConnect(Number(p.EMBEDDED_PG_PORT)));
    t.false(await canConnect(Number(p.TEMPORAL_PORT)));
  } finally {
    blocker.close();
  }
});
