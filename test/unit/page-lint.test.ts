// The page rules of eslint.config.js, run through ESLint's Node API with the project's own config on planted
// sources: raw HTML (dangerouslySetInnerHTML) and an href from data not passed through safeUrl() are errors; the
// same page written with safeUrl() lints clean.
import test from 'ava';
import { lintPlanted } from '../helpers/lint-planted.js';

// Planted under the name of an existing page.
const lint = (code: string) => lintPlanted('api/dashboard/apps/home-page.tsx', code, 'no-restricted-syntax');

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
    "import { safeUrl } from '../../api/view-kit/html.js';\nexport const " +
      'L = ({ url }: { url: string }) => <a href={safeUrl(url)}>link</a>;\n',
  );
  t.deepEqual(safe, []);
});
