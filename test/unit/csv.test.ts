import test from 'ava';
import { csvSafeCell, toCsv } from '../../lib/csv.js';

test('cells a spreadsheet would run as formulas are prefixed with a quote', (t) => {
  for (const lead of ['=', '+', '-', '@', '\t', '\r']) t.is(csvSafeCell(`${lead}1+1`), `'${lead}1+1`);
  t.is(csvSafeCell('plain'), 'plain');
  t.is(csvSafeCell(-5), "'-5");
  t.is(csvSafeCell(null), '');
});

test('CSV is UTF-8 with a BOM, quotes what needs quoting and escapes every row', (t) => {
  const text = toCsv(
    ['name', 'note'],
    [
      ['Zoë, "Z"', '=HYPERLINK("x")'],
      ['Ann', 3.3],
    ],
  );
  t.true(text.startsWith('\uFEFF'));
  t.is(text.slice(1), 'name,note\r\n"Zoë, ""Z""","\'=HYPERLINK(""x"")"\r\nAnn,3.3\r\n');
});
