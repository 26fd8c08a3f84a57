// The operator contract of CONTRACT.md: `svc seed --json`, `svc agent-key create`, `svc migrate`, config errors.
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolvePrincipal } from '../../api/auth/authenticate.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { COMMANDS } from '../../cli/commands.js';
import { SEED_KEYS, type SeedResult } from '../../actions/seed.js';
import { verifyPassword } from '../../lib/passwords.js';
import { SCOPES } from '../../lib/scopes.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness(test, { worker: false, api: false });
const env = () =>
  cliEnv({ DATABASE_URL: h().database.url, TEMPORAL_ADDRESS: h().config.TEMPORAL_ADDRESS, BASE_URL: 'http://svc.test:8080' });

test('svc seed --json prints exactly the contract object and nothing else on stdout', async (t) => {
  const res = await runSvc(['seed', '--json'], env());
  t.is(res.code, 0, res.stderr);
  const lines = res.stdout.trim().split('\n');
  t.is(lines.length, 1);
  const seed = JSON.parse(lines[0]!) as Record<string, unknown>;
  t.deepEqual(Object.keys(seed).sort(), [...SEED_KEYS].sort());
  // CONTRACT.md's list, spelled out so that dropping a key from SEED_KEYS fails here.
  t.deepEqual([...SEED_KEYS].sort(), [
    'agent_key',
    'app_id',
    'base_url',
    'campaign_id',
    'creator_code',
    'dashboard_url',
    'org_id',
    'purchase_api_key',
    'sdk_key',
    'user_email',
    'user_password',
    'wallet_balance_usd',
    'webhook_secret',
  ]);
  for (const key of SEED_KEYS) {
    if (key === 'wallet_balance_usd') t.true(typeof seed[key] === 'number' && seed[key] >= 1000);
    else t.true(typeof seed[key] === 'string' && seed[key].length > 0, key);
  }
  t.is(seed.base_url, 'http://svc.test:8080');
  t.is(seed.dashboard_url, 'http://svc.test:8080/dashboard');
  t.regex(seed.agent_key as string, /^it_mcp_/);
  t.regex(seed.sdk_key as string, /^it_(?!mcp_)/);
  t.regex(seed.webhook_secret as string, /^rc_webhook_/);
  t.regex(seed.purchase_api_key as string, /^it_srv_/);
});

test('what svc seed prints is real: active public 30% campaign, joined creator, funded wallet, working keys', async (t) => {
  const db = h().db;
  const res = await runSvc(['seed', '--json'], env());
  const seed = JSON.parse(res.stdout) as SeedResult;
  const campaign = await db('campaigns').where('id', seed.campaign_id).first();
  t.like(campaign, { app_id: seed.app_id, org_id: seed.org_id, status: 'active', campaign_type: 'public' });
  t.is(Number(campaign.commission_percentage), 30);
  const code = await db('creator_codes').where({ code: seed.creator_code, campaign_id: seed.campaign_id, app_id: seed.app_id }).first();
  t.truthy(code);
  t.is(code.status, 'active');
  const wallet = await getWalletTotals(db, seed.org_id);
  t.is(wallet.balanceMicros, seed.wallet_balance_usd * 1_000_000);
  t.is(wallet.reservedMicros, 0);
  const user = await db('users').where('email', seed.user_email).first();
  t.true(await verifyPassword(seed.user_password, user.password_hash));
  t.like(await resolvePrincipal(db, seed.sdk_key), { kind: 'sdk', appId: seed.app_id });
  t.like(await resolvePrincipal(db, seed.webhook_secret), { kind: 'webhook', appId: seed.app_id });
  t.like(await resolvePrincipal(db, seed.purchase_api_key), { kind: 'purchase_api', appId: seed.app_id });
  const agent = await resolvePrincipal(db, seed.agent_key);
  t.like(agent, { kind: 'agent', orgIds: [seed.org_id] });
  t.is(agent?.kind === 'agent' ? agent.scopes.length : 0, SCOPES.length);
});

test('every svc seed creates a new isolated organization', async (t) => {
  const [a, b] = await Promise.all([runSvc(['seed', '--json'], env()), runSvc(['seed', '--json'], env())]);
  const sa = JSON.parse(a.stdout) as SeedResult;
  const sb = JSON.parse(b.stdout) as SeedResult;
  t.not(sa.org_id, sb.org_id);
  t.not(sa.app_id, sb.app_id);
  t.not(sa.user_email, sb.user_email);
  t.not(sa.creator_code, sb.creator_code);
});

test('svc agent-key create prints {"agent_key"} with all scopes by default, or the ones asked for', async (t) => {
  const seed = JSON.parse((await runSvc(['seed', '--json'], env())).stdout) as SeedResult;
  const all = await runSvc(['agent-key', 'create', '--org', seed.org_id, '--json'], env());
  t.is(all.code, 0, all.stderr);
  const allKey = JSON.parse(all.stdout) as Record<string, string>;
  t.deepEqual(Object.keys(allKey), ['agent_key']);
  const p1 = await resolvePrincipal(h().db, allKey.agent_key!);
  t.is(p1?.kind === 'agent' ? p1.scopes.length : 0, SCOPES.length);

  const some = await runSvc(['agent-key', 'create', '--org', seed.org_id, '--scopes', 'apps:read,billing:read', '--json'], env());
  const p2 = await resolvePrincipal(h().db, (JSON.parse(some.stdout) as { agent_key: string }).agent_key);
  t.deepEqual(p2?.kind === 'agent' ? [...p2.scopes].sort() : [], ['apps:read', 'billing:read']);

  const bad = await runSvc(['agent-key', 'create', '--org', seed.org_id, '--scopes', 'apps:read,money:write', '--json'], env());
  t.is(bad.code, 2);
  t.regex(bad.stderr, /unknown scopes: money:write/);
  const noOrg = await runSvc(['agent-key', 'create', '--org', 'org_nope', '--json'], env());
  t.is(noOrg.code, 2);
  t.is(noOrg.stdout, '');
});

test('svc migrate --status reports the database up to date', async (t) => {
  const res = await runSvc(['migrate', '--status'], env());
  t.is(res.code, 0, res.stderr);
  t.regex(res.stdout, /pending: none/);
});

test('a bad configuration stops a command with a message naming the variable', async (t) => {
  const res = await runSvc(['api'], cliEnv({ DATABASE_URL: h().database.url, PORT: 'eighty' }));
  t.is(res.code, 1);
  t.regex(res.stderr, /PORT/);
  t.notRegex(res.stderr, /at .*\.ts:\d+/); // a message, not a stack trace
  const noDb = await runSvc(['seed', '--json'], cliEnv({ SVC_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'svc-empty-')) }));
  t.is(noDb.code, 1);
  t.regex(noDb.stderr, /DATABASE_URL/);
  t.is(noDb.stdout, '');
});

/** Wrong arguments per command: a missing subcommand, option or option value, or an argument the command does not take. */
const WRONG_ARGUMENTS: Record<string, string[][]> = {
  dev: [['stray']],
  api: [['stray']],
  worker: [['stray']],
  config: [['stray'], ['--markdown=yes']],
  migrate: [['stray'], ['--status=yes']],
  seed: [[], ['--json', 'stray']],
  'agent-key': [[], ['create'], ['create', '--org'], ['make', '--org', 'org_x']],
  events: [[], ['retry'], ['retry', '--app'], ['retry', '--app', 'app_x', 'extra']],
  payouts: [[], ['run'], ['run', '--org'], ['run', '--org', 'org_x', '--run-id']],
  workflows: [[], ['wake'], ['rehydrate', 'extra']],
  mail: [[], ['--json'], ['--to'], ['--to', 'a@example.com', 'stray']],
};

/** Runs every argument list through the real binary, a few at a time (each start loads the sources). */
async function runAll(lists: string[][]): Promise<Map<string, Awaited<ReturnType<typeof runSvc>>>> {
  const results = new Map<string, Awaited<ReturnType<typeof runSvc>>>();
  const queue = [...lists];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let args = queue.shift(); args; args = queue.shift()) results.set(args.join(' '), await runSvc(args, cliEnv({})));
    }),
  );
  return results;
}

const oneLine = (s: string) => s.trimEnd().split('\n').length === 1;

test('every command answers --help and svc help COMMAND (exit 0, its usage on stdout, nothing started)', async (t) => {
  const names = Object.keys(COMMANDS);
  const results = await runAll([
    ...names.flatMap((n) => [
      [n, '--help'],
      ['help', n],
    ]),
    ['help'],
    ['--help'],
    ['payouts', 'run', '--help'],
  ]);
  for (const name of names) {
    const flag = results.get(`${name} --help`)!;
    t.is(flag.code, 0, `${name} --help: ${flag.stderr}`);
    t.true(flag.stdout.startsWith(`usage: svc ${name}`), flag.stdout);
    for (const option of Object.keys(COMMANDS[name]!.options))
      t.true(flag.stdout.includes(`--${option}`), `${name} --help lists --${option}`);
    t.is(results.get(`help ${name}`)!.stdout, flag.stdout, `svc help ${name}`);
  }
  t.is(results.get('payouts run --help')!.stdout, results.get('payouts --help')!.stdout, 'the TypeError of old is a help page');
  for (const overview of [results.get('help')!, results.get('--help')!]) {
    t.is(overview.code, 0);
    for (const name of names) t.regex(overview.stdout, new RegExp(`^  ${name}\\b`, 'm'));
    // Every command is followed by at least two spaces before its text (it once printed "workflows rehydraterestart").
    for (const [name, spec] of Object.entries(COMMANDS))
      t.regex(overview.stdout, new RegExp(`^  ${name}${spec.subcommand ? ` ${spec.subcommand}` : ''}  +\\S`, 'm'), name);
  }
});

test('an unknown option or a wrong or missing argument: exit 2 and one usage line on stderr, never a stack trace', async (t) => {
  const lists = [
    ...Object.keys(COMMANDS).map((n) => [n, '--bogus']),
    ['seed', '--json', '--bogus'],
    ['payouts', 'run', '--org', 'org_x', '--bogus'],
    ...Object.entries(WRONG_ARGUMENTS).flatMap(([n, cases]) => cases.map((c) => [n, ...c])),
    [],
    ['nope'],
    ['help', 'nope'],
  ];
  t.deepEqual(Object.keys(WRONG_ARGUMENTS).sort(), Object.keys(COMMANDS).sort(), 'every command is tried with wrong arguments');
  const results = await runAll(lists);
  for (const args of lists) {
    const res = results.get(args.join(' '))!;
    const label = `svc ${args.join(' ')}: ${res.stderr}`;
    t.is(res.code, 2, label);
    t.is(res.stdout, '', label);
    t.true(oneLine(res.stderr), label);
    t.notRegex(res.stderr, /TypeError|Error:|\n\s+at /, label);
    if (args.length > 0 && COMMANDS[args[0]!]) t.true(res.stderr.includes(`usage: svc ${args[0]}`), label);
  }
  t.regex(results.get('seed --bogus')!.stderr, /^svc seed: unknown option '--bogus' \(usage: svc seed --json\)$/m);
  t.regex(results.get('payouts run')!.stderr, /missing --org/);
  t.regex(results.get('payouts run --org')!.stderr, /'--org <value>' argument missing/);
});
