// The SDK import rule of eslint.config.js on a planted source: reaching into packages/sdk/src from the server is an
// error, the package's public entry lints clean. Planted as the module that once imported the source.
import test from 'ava';
import { lintPlanted } from '../helpers/lint-planted.js';

const importErrors = (code: string) => lintPlanted('lib/event-dedup.ts', code, 'no-restricted-imports');

test('the server importing packages/sdk/src is a lint error; @svc/sdk/event-key is not', async (t) => {
  const errors = await importErrors("export { canonicalJson } from '../packages/sdk/src/event-key.js';\n");
  t.is(errors.length, 1);
  t.regex(errors[0]!, /public entries/);
  t.deepEqual(await importErrors("export { canonicalJson } from '@svc/sdk/event-key';\n"), []);
});
