// The column limit of eslint.config.js (max-len 140, no exemption for strings, templates, comments or URLs), run
// through ESLint's Node API with the project's own config on planted sources: a line of 141 columns is an error
// whatever it holds, 140 columns lint clean, and only a trailing `// long-line: <why>` lets a longer line pass.
import test from 'ava';
import { plantedMessages } from '../helpers/lint-planted.js';

// Planted under this file's own name.
const longLines = async (code: string) => (await plantedMessages('test/unit/max-len-lint.test.ts', code, 'max-len')).map((m) => m.line);

/** `export const text = '...';` padded with x to exactly `columns` columns. */
const stringLine = (columns: number) => {
  const head = "export const text = '";
  return head + 'x'.repeat(columns - head.length - 2) + "';";
};

test('a string line of 141 columns fails lint, one of 140 passes', async (t) => {
  t.is(stringLine(141).length, 141);
  t.deepEqual(await longLines(stringLine(141) + '\n'), [1]);
  t.deepEqual(await longLines(stringLine(140) + '\n'), []);
});

test('long template literals, comments and URLs fail lint too', async (t) => {
  const template = 'export const text = `' + 'word '.repeat(30) + '`;\n';
  const comment = '// ' + 'word '.repeat(30) + '\nexport const n = 1;\n';
  const url = "export const url = 'https://example.com/" + 'path/'.repeat(30) + "';\n";
  t.deepEqual(await longLines(template), [1]);
  t.deepEqual(await longLines(comment), [1]);
  t.deepEqual(await longLines(url), [1]);
});

test('only a trailing long-line comment that says why lets a longer line pass', async (t) => {
  const line = 'export const pattern = /' + 'x'.repeat(130) + '/;';
  t.deepEqual(await longLines(line + ' // long-line: one regular expression\n'), []);
  t.deepEqual(await longLines(line + ' // long-line:\n'), [1]);
  t.deepEqual(await longLines(line + ' // too long\n'), [1]);
});
