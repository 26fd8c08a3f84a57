// The help pages are two columns: every command (overview) and every option (a command's help) is followed by at
// least two spaces, and all texts of one page start in the same column, so nothing runs together (the overview once
// printed "workflows rehydraterestart") however long a command or option grows.
import test from 'ava';
import { COMMANDS, commandHelp, overview } from '../../cli/commands.js';

/** The left cells a page must show, in order, each followed by its text. */
function assertColumns(t: import('ava').ExecutionContext, page: string, cells: readonly string[], what: string): void {
  const lines = page.split('\n').filter((l) => l.startsWith('  '));
  t.is(lines.length, cells.length, `${what}: one line per entry\n${page}`);
  const starts = new Set<number>();
  lines.forEach((line, i) => {
    const cell = cells[i]!;
    t.true(line.startsWith(`  ${cell}  `), `${what}: '${cell}' then two spaces: ${JSON.stringify(line)}`);
    const after = line.slice(2 + cell.length);
    t.true(after.trim().length > 0, `${what}: '${cell}' has its text`);
    starts.add(2 + cell.length + after.search(/\S/u));
  });
  t.is(starts.size, 1, `${what}: every text starts in one column\n${page}`);
  const longest = Math.max(...cells.map((c) => c.length));
  t.is([...starts][0], 2 + longest + 2, `${what}: the column is the longest entry plus two spaces`);
}

test('svc help: every command and its text in two aligned columns', (t) => {
  const cells = [
    ...Object.entries(COMMANDS).map(([name, spec]) => `${name}${spec.subcommand ? ` ${spec.subcommand}` : ''}`),
    'help COMMAND',
  ];
  t.true(
    cells.some((c) => c.includes(' ')),
    'a command with a subcommand (workflows rehydrate) is among them',
  );
  assertColumns(t, overview(), cells, 'overview');
});

test('svc COMMAND --help: every option and its text in two aligned columns, for every command', (t) => {
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const cells = [...Object.entries(spec.options).map(([option, o]) => `--${option}${o.value ? ` ${o.value}` : ''}`), '--help'];
    assertColumns(t, commandHelp(name), cells, name);
  }
});
