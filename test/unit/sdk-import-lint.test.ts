// The SDK import rule of eslint.config.js, run through ESLint's Node API with the project's own config on a planted
// source: reaching into packages/sdk/src from the server is an error, the package's public entry lints clean.
import test from 'ava';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Linted from memory under the name of the module that once imported the source (type-aware linting needs a file
// the project's tsconfig knows); nothing is written.
const planted = path.join(root, 'lib/event-dedup.ts');

async function importErrors(code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: planted });
  const fatal = result!.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('; '));
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('the server importing packages/sdk/src is a lint error; @svc/sdk/event-key is not', async (t) => {
  const errors = await importErrors("export { canonicalJson } from '../packages/sdk/src/event-key.js';\n");
  t.is(errors.length, 1);
  t.regex(errors[0]!, /public entries/);
  t.deepEqual(await importErrors("export { canonicalJson } from '@svc/sdk/event-key';\n"), []);
});
