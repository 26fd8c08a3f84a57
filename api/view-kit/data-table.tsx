// The dashboard's tables (creators, invitations, ledger, events, payouts): one column list per table gives both the
// page's cells and the CSV's, so an export holds exactly what the view shows. A table page reads its view from the
// query string (lib/table-query.ts: `q`, `sort`, `dir`, `page`), and `?format=csv` on the same URL answers every
// row of that filtered, sorted view (all pages, up to CSV_ROW_CAP) through lib/csv.ts. Plain markup: a semantic
// table with a caption and column headers whose links sort, inside a scroll container; no JavaScript.
import type { ComponentChildren, VNode } from 'preact';
import { csvHeaders, toCsv, type CsvCell } from '../../lib/csv.js';
import { safeUrl } from './html.js';
import { csvUsd } from '../../lib/money.js';
import { LocalTime } from './ui.js';
import { CSV_ROW_CAP, readTableView, viewQuery, wantsCsv, type TablePage, type TableSpec, type TableView } from '../../lib/table-query.js';
import { csvWindow, pageWindow, type TableWindow } from '../../db/table-page.js';
import type { AppContext } from '../context.js';
import { Hidden, type SignedIn } from './layout.js';

export interface Column<Row> {
  label: string;
  /** The base query's output column this header sorts by (one of the spec's sortable ones). */
  sort?: string;
  /** The cell as text: the CSV's value, and the page's unless `html` is given. */
  text: (row: Row) => CsvCell;
  html?: (row: Row) => ComponentChildren;
  /** A column of actions (buttons), left out of the CSV. */
  action?: boolean;
  /** Long tokens without spaces (emails, ids): the cell may break them anywhere, so they never widen the table. */
  wrapAny?: boolean;
}

export interface TableDef<Row> {
  id: string;
  caption: string;
  spec: TableSpec;
  columns: Column<Row>[];
  /** The CSV's file name (ours, never user text). */
  file: string;
  rowKey?: (row: Row) => string;
}

/** The view of this request and, for `?format=csv`, the CSV window (every row) instead of one page. */
export function tableRequest(ctx: AppContext, spec: TableSpec): { view: TableView; csv: boolean; window: TableWindow } {
  const view = readTableView(ctx.query, spec);
  const csv = wantsCsv(ctx.query);
  return { view, csv, window: csv ? csvWindow : pageWindow(view) };
}

/** Answers the CSV of a page of rows read with the CSV window; a view past the cap is cut and says so in a header. */
export function sendTableCsv<Row>(ctx: AppContext, def: TableDef<Row>, page: TablePage<Row>): void {
  const rows = page.rows.slice(0, CSV_ROW_CAP);
  ctx.status = 200;
  ctx.set({ ...csvHeaders(def.file), 'Cache-Control': 'no-store', 'X-Total-Rows': String(page.total) });
  if (page.total > CSV_ROW_CAP) ctx.set('X-Rows-Cut-At', String(CSV_ROW_CAP));
  const columns = def.columns.filter((c) => !c.action);
  ctx.body = toCsv(
    columns.map((c) => c.label),
    rows.map((r) => columns.map((c) => c.text(r))),
  );
}

interface TableProps<Row> {
  s: SignedIn;
  def: TableDef<Row>;
  page: TablePage<Row>;
  view: TableView;
  /** The page's path (no query). */
  path: string;
  /** Filters of the page kept in every link and in the search form (environment, period...). */
  filters?: Record<string, string | undefined>;
}

const orgFilter = (s: SignedIn): Record<string, string | undefined> => (s.orgIds.length > 1 ? { org: s.orgId } : {});

/** The search form, the table with sortable headers, the pager and the CSV link. */
export function DataTable<Row>({ s, def, page, view, path, filters = {} }: TableProps<Row>): VNode {
  const keep = { ...orgFilter(s), ...filters };
  const link = (over: Partial<TableView> & { csv?: boolean }) => `${path}${viewQuery(view, def.spec, keep, over)}`;
  const first = page.total === 0 ? 0 : (view.page - 1) * view.pageSize + 1;
  const last = (view.page - 1) * view.pageSize + page.rows.length;
  const pages = Math.max(1, Math.ceil(page.total / view.pageSize));
  const captionId = `${def.id}-caption`;
  return (
    <section class="data-table" id={`${def.id}-section`}>
      <form method="get" action={path} role="search">
        <Hidden
          fields={{
            ...keep,
            sort: view.sort === def.spec.defaultSort && view.dir === def.spec.defaultDir ? undefined : view.sort,
            dir: view.sort === def.spec.defaultSort && view.dir === def.spec.defaultDir ? undefined : view.dir,
          }}
        />
        <label for={`${def.id}-q`}>Search {def.caption.toLowerCase()}</label>{' '}
        <input id={`${def.id}-q`} name="q" type="search" value={view.search ?? ''} maxlength={200} /> <button type="submit">Search</button>
        {view.search ? (
          <>
            {' '}
            <a href={safeUrl(link({ search: undefined, page: 1 }))}>Clear</a>
          </>
        ) : null}
      </form>
      <div class="table-scroll" role="region" aria-labelledby={captionId} tabindex={0}>
        <table id={def.id} class={def.columns[def.columns.length - 1]?.action ? 'has-actions' : undefined}>
          <caption id={captionId}>
            {def.caption}
            {view.search ? ` matching “${view.search}”` : ''}:{' '}
            <span class="table-count">{page.total === 0 ? 'no rows' : `rows ${first} to ${last} of ${page.total}`}</span>
          </caption>
          <thead>
            <tr>
              {def.columns.map((c) => {
                if (!c.sort) return <th scope="col">{c.label}</th>;
                const active = view.sort === c.sort;
                const next = active && view.dir === 'asc' ? 'desc' : 'asc';
                return (
                  <th scope="col" aria-sort={active ? (view.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                    <a href={safeUrl(link({ sort: c.sort, dir: next, page: 1 }))} data-sort={c.sort}>
                      {c.label}
                      {active ? (view.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </a>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {page.rows.length ? (
              page.rows.map((r) => (
                <tr data-row={def.rowKey?.(r)}>
                  {def.columns.map((c) => (
                    <td class={c.wrapAny ? 'wrap-any' : undefined}>{c.html ? c.html(r) : String(c.text(r) ?? '')}</td>
                  ))}
                </tr>
              ))
            ) : (
              <tr class="empty">
                <td colspan={def.columns.length} class="muted">
                  {view.page > 1 && page.total === 0 ? 'No rows on this page.' : 'No rows.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label={`${def.caption} pages`}>
        {view.page > 1 ? (
          <a href={safeUrl(link({ page: view.page - 1 }))} rel="prev">
            Previous page
          </a>
        ) : null}{' '}
        <span>
          Page {view.page} of {pages}
        </span>{' '}
        {view.page < pages ? (
          <a href={safeUrl(link({ page: view.page + 1 }))} rel="next">
            Next page
          </a>
        ) : null}
        {' · '}
        <a href={safeUrl(link({ csv: true }))} download>
          Export CSV
        </a>{' '}
        <span class="muted">(every matching row in this order, all pages, up to {CSV_ROW_CAP.toLocaleString('en-US')})</span>
      </nav>
    </section>
  );
}

/** Money as the table's text and CSV cell: dollars with exactly two decimals (lib/money.ts csvUsd), empty when none. */
export const usd = (micros: number | null | undefined): string => (micros === null || micros === undefined ? '' : csvUsd(Number(micros)));
/**
 * A column of instants: the page shows the dashboard's one date format in the viewer's time zone (LocalTime), the
 * CSV the same instant as ISO 8601 UTC, which is also the cell's `datetime` (so export and page are the same values).
 */
export function timeColumn<Row>(label: string, at: (row: Row) => Date | string | null | undefined, sort?: string): Column<Row> {
  const iso = (r: Row) => {
    const d = at(r);
    return d ? new Date(d).toISOString() : '';
  };
  return { label, ...(sort ? { sort } : {}), text: iso, html: (r) => <LocalTime at={at(r)} /> };
}
