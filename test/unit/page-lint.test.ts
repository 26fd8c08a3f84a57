// The page rules of eslint.config.js, run through ESLint's Node API with the project's own config on planted
// sources: raw HTML (dangerouslySetInnerHTML) and an href from data not passed through safeUrl() are errors; the
// same page written with safeUrl() lints clean.
import test from 'ava';
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The planted source is linted from memory under the name of an existing page (type-aware linting needs a file the
// project's tsconfig knows); nothing is written.
const planted = path.join(root, 'api/dashboard/home-page.tsx');

const eslint = new ESLint({ cwd: root });

async function lint(code: string) {
  const [result] = await eslint.lintText(code, { filePath: planted });
  const fatal = result!.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('; '));
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

test('dangerouslySetInnerHTML in a page is a lint error', async (t) => {
  const messages = await lint('export const Bio = ({ html }: { html: string }) => <div dangerouslySetInnerHTML={{ __html: html }} />;\n');
  t.is(messages.length, 1);
  t.regex(messages[0]!, /No raw HTML in pages/);
});

test('an href from data must go through safeUrl()', async (t) => {
  const raw = await lint('export const L = ({ url }: { url: string }) => <a href={url}>link</a>;\n');
  t.is(raw.length, 1);
  t.regex(raw[0]!, /safeUrl/);
  const safe = await lint(
    "import { safeUrl } from '../../lib/html.js';\nexport const L = ({ url }: { url: string }) => <a href={safeUrl(url)}>link</a>;\n",
  );
  t.deepEqual(safe, []);
});
