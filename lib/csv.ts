import { stringify } from 'csv-stringify/sync';

// One owner of CSV export for every page that offers it (dashboard tables, creator statements), so the
// formula-injection rule is decided once: a spreadsheet runs a cell that starts with one of these as a formula.
const FORMULA_LEAD = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null | undefined;

/** A cell as text, prefixed with `'` when a spreadsheet would read it as a formula. */
export function csvSafeCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return FORMULA_LEAD.test(text) ? `'${text}` : text;
}

/** UTF-8 CSV text (with a BOM so spreadsheets read it as UTF-8), header first, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const body = stringify([header.map(csvSafeCell), ...rows.map((row) => row.map(csvSafeCell))], {
    record_delimiter: 'windows',
  });
  return `\uFEFF${body}`;
}

/** Headers for a CSV download named `filename` (the name is ours, never user text). */
export function csvHeaders(filename: string): Record<string, string> {
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
  };
}
