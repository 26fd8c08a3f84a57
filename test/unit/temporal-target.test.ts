// The Temporal target read the SDK's standard way: environment over profile, profile over nothing.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../runtime/config.js';
import { resolveTemporalTarget, withTemporalTarget } from '../../runtime/temporal-target.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-target-'));
const file = path.join(dir, 'temporal.toml');
writeFileSync(
  file,
  [
    '[profile.default]',
    'address = "default.example:7233"',
    'namespace = "dflt"',
    '',
    '[profile.cloud]',
    'address = "acct.tmprl.cloud:7233"',
    'namespace = "acct.ns"',
    'api_key = "cloud-key"',
    '',
  ].join('\n'),
);
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('nothing configured: no address, so svc dev starts its own dev server', (t) => {
  const target = resolveTemporalTarget({ HOME: dir });
  t.is(target.address, undefined);
  t.is(target.source, 'none');
  const { config } = withTemporalTarget(loadConfig({}), { HOME: dir });
  t.is(config.TEMPORAL_ADDRESS, undefined);
  t.is(config.TEMPORAL_NAMESPACE, 'default');
});

test('a profile gives address, namespace and an API key (which turns TLS on)', (t) => {
  const target = resolveTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud' });
  t.is(target.address, 'acct.tmprl.cloud:7233');
  t.is(target.namespace, 'acct.ns');
  t.is(target.extras.apiKey, 'cloud-key');
  t.truthy(target.extras.tls);
  t.is(target.source, 'profile');
  const { config } = withTemporalTarget(loadConfig({}), { TEMPORAL_CONFIG_FILE: file });
  t.is(config.TEMPORAL_ADDRESS, 'default.example:7233');
  t.is(config.TEMPORAL_NAMESPACE, 'dflt');
});

test('environment variables override the profile', (t) => {
  const env = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_ADDRESS: '10.0.0.5:7233', TEMPORAL_NAMESPACE: 'prod' };
  const target = resolveTemporalTarget(env);
  t.is(target.address, '10.0.0.5:7233');
  t.is(target.namespace, 'prod');
  t.is(target.source, 'environment');
  const { config } = withTemporalTarget(loadConfig(env), env);
  t.is(config.TEMPORAL_ADDRESS, '10.0.0.5:7233');
  t.is(config.TEMPORAL_NAMESPACE, 'prod');
});

test('an address the configuration already holds (a running svc dev) is kept over the default profile', (t) => {
  const { config } = withTemporalTarget(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7999' }), { TEMPORAL_CONFIG_FILE: file });
  t.is(config.TEMPORAL_ADDRESS, '127.0.0.1:7999');
});

test('a missing profile file or profile is a configuration error naming the variable', (t) => {
  const missingFile = t.throws(() => resolveTemporalTarget({ TEMPORAL_CONFIG_FILE: path.join(dir, 'absent.toml') }), {
    instanceOf: ConfigError,
  });
  t.deepEqual(missingFile.variables, ['TEMPORAL_CONFIG_FILE']);
  const missingProfile = t.throws(() => resolveTemporalTarget({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' }), {
    instanceOf: ConfigError,
  });
  t.deepEqual(missingProfile.variables, ['TEMPORAL_PROFILE']);
  t.regex(missingProfile.message, /staging/);
});
