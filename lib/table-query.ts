// The dashboard tables' query options (search, sort, page) read from a page's query string. Dashboard only: the
// agent API's reads take none of these and answer as the spec says (db/table-page.ts applies them around the same
// base queries). A sort column is one the table lists as sortable, anything else falls back to its default, so a
// hand-edited URL never reaches SQL with a column name of its own.

export type SortDirection = 'asc' | 'desc';

export interface TableView {
  /** Case-insensitive substring matched against the table's searchable columns; undefined: every row. */
  search?: string;
  sort: string;
  dir: SortDirection;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface TableSpec {
  /** Output columns of the base query a user may sort by. */
  sortable: readonly string[];
  /** Output columns the search looks in (cast to text). */
  searchable: readonly string[];
  defaultSort: string;
  defaultDir: SortDirection;
  /** A unique output column: the last sort key, so pages never overlap or skip rows with equal sort values. */
  key: string;
}

export const PAGE_SIZE = 25;
/** A CSV holds every row of the filtered, sorted view up to this many (a larger export is cut and says so). */
export const CSV_ROW_CAP = 10_000;
const MAX_SEARCH = 200;
const MAX_PAGE = 100_000;

const one = (v: unknown): string | undefined => (Array.isArray(v) ? one(v[0]) : typeof v === 'string' ? v : undefined);

/** The view a query string asks for; anything malformed falls back to the default (a table never answers 4xx for it). */
export function readTableView(query: Record<string, unknown>, spec: TableSpec): TableView {
  const search = one(query.q)?.trim().slice(0, MAX_SEARCH) || undefined;
  const sortAsked = one(query.sort);
  const sort = sortAsked && spec.sortable.includes(sortAsked) ? sortAsked : spec.defaultSort;
  const dirAsked = one(query.dir);
  const dir: SortDirection = dirAsked === 'asc' || dirAsked === 'desc' ? dirAsked : sort === spec.defaultSort ? spec.defaultDir : 'asc';
  const pageAsked = Number(one(query.page));
  const page = Number.isInteger(pageAsked) && pageAsked >= 1 ? Math.min(pageAsked, MAX_PAGE) : 1;
  return { search, sort, dir, page, pageSize: PAGE_SIZE };
}

/** Whether the query asks for the CSV of the view rather than the page. */
export const wantsCsv = (query: Record<string, unknown>): boolean => one(query.format) === 'csv';

/** The query string of `view` (plus `extra` filters), defaults left out; `format=csv` when `csv`. */
export function viewQuery(
  view: TableView,
  spec: TableSpec,
  extra: Record<string, string | undefined> = {},
  over: Partial<TableView> & { csv?: boolean } = {},
): string {
  const v = { ...view, ...over };
  const params = new URLSearchParams();
  for (const [k, value] of Object.entries(extra)) if (value) params.set(k, value);
  if (v.search) params.set('q', v.search);
  if (v.sort !== spec.defaultSort || v.dir !== spec.defaultDir) {
    params.set('sort', v.sort);
    params.set('dir', v.dir);
  }
  if (!over.csv && v.page > 1) params.set('page', String(v.page));
  if (over.csv) params.set('format', 'csv');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A page of a table: its rows and how many rows the whole filtered view holds. */
export interface TablePage<Row> {
  rows: Row[];
  total: number;
}
