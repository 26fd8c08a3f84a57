import { readFileSync } from 'node:fs';
import test from 'ava';
import { ConfigError, configMarkdownTable, loadConfig, VARIABLES } from '../../runtime/config.js';

test('defaults apply when nothing is set', (t) => {
  const c = loadConfig({});
  t.is(c.PORT, 8080);
  t.is(c.HOST, '127.0.0.1');
  t.is(c.TEMPORAL_NAMESPACE, 'default');
  t.is(c.TEMPORAL_TASK_QUEUE, 'attribution');
  t.is(c.TRUST_PROXY, false);
  t.is(c.BASE_URL, 'http://127.0.0.1:8080');
  t.is(c.DASHBOARD_URL, 'http://127.0.0.1:8080/dashboard');
  t.is(c.DATABASE_URL, undefined);
});

test('values are coerced to their types', (t) => {
  const c = loadConfig({ PORT: '9090', TRUST_PROXY: 'yes', BASE_URL: 'https://svc.example.com/', EMBEDDED_PG_PORT: '6000' });
  t.is(c.PORT, 9090);
  t.is(c.TRUST_PROXY, true);
  t.is(c.BASE_URL, 'https://svc.example.com');
  t.is(c.DASHBOARD_URL, 'https://svc.example.com/dashboard');
  t.is(c.EMBEDDED_PG_PORT, 6000);
});

const bad: [string, Record<string, string>, string[]][] = [
  ['non-numeric port', { PORT: 'abc' }, ['PORT']],
  ['port out of range', { TEMPORAL_PORT: '70000' }, ['TEMPORAL_PORT']],
  ['boolean that is neither', { TRUST_PROXY: 'maybe' }, ['TRUST_PROXY']],
  ['URL without scheme', { DATABASE_URL: 'localhost/db' }, ['DATABASE_URL']],
  ['unknown enum value', { LOG_LEVEL: 'loud' }, ['LOG_LEVEL']],
  ['several at once', { PORT: '-1', FX_RATES_URL: 'nope' }, ['PORT', 'FX_RATES_URL']],
];

for (const [label, env, names] of bad) {
  test(`config error names the bad variable: ${label}`, (t) => {
    const err = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.deepEqual([...err.variables].sort(), [...names].sort());
    for (const name of names) t.true(err.message.includes(name), err.message);
  });
}

// The configuration page README links holds the generated table as it is: every variable, its default, its meaning.
test('docs/configuration.md holds the generated table of every variable, and README links it', (t) => {
  const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const page = read('docs/configuration.md');
  const table = configMarkdownTable();
  t.true(page.includes(table), 'docs/configuration.md differs from `npx svc config --markdown`');
  for (const [name, spec] of Object.entries(VARIABLES)) {
    const defaultCell = 'default' in spec && spec.default !== undefined ? `\`${String(spec.default)}\`` : '-';
    t.true(page.includes(`| \`${name}\` | ${defaultCell} |`), name);
  }
  t.true(read('README.md').includes('](docs/configuration.md)'), 'README links docs/configuration.md');
});

test('production needs an https BASE_URL (the OAuth issuer); loopback is the exception', (t) => {
  const err = t.throws(() => loadConfig({ NODE_ENV: 'production', BASE_URL: 'http://api.example.com' }), { instanceOf: ConfigError });
  t.deepEqual(err?.variables, ['BASE_URL']);
  t.is(loadConfig({ NODE_ENV: 'production', BASE_URL: 'https://api.example.com' }).BASE_URL, 'https://api.example.com');
  t.is(loadConfig({ NODE_ENV: 'production', BASE_URL: 'http://127.0.0.1:8080' }).BASE_URL, 'http://127.0.0.1:8080');
  t.is(loadConfig({ NODE_ENV: 'development', BASE_URL: 'http://api.example.com' }).BASE_URL, 'http://api.example.com');
});

test('HOLDING_PERIOD_DAY_MS shortens a holding-period day for tests and is refused in production', (t) => {
  t.is(loadConfig({}).HOLDING_PERIOD_DAY_MS, 86_400_000);
  t.is(loadConfig({ NODE_ENV: 'test', HOLDING_PERIOD_DAY_MS: '200' }).HOLDING_PERIOD_DAY_MS, 200);
  const err = t.throws(() => loadConfig({ NODE_ENV: 'production', BASE_URL: 'https://api.example.com', HOLDING_PERIOD_DAY_MS: '200' }), {
    instanceOf: ConfigError,
  });
  t.deepEqual(err?.variables, ['HOLDING_PERIOD_DAY_MS']);
  t.is(
    loadConfig({ NODE_ENV: 'production', BASE_URL: 'https://api.example.com', HOLDING_PERIOD_DAY_MS: '86400000' }).HOLDING_PERIOD_DAY_MS,
    86_400_000,
  );
});
