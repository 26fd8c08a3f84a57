// Search, sort and pagination around a base query (the dashboard tables, lib/table-query.ts): the base query is the
// same one the agent API's read runs, wrapped as a subquery, so a table shows the rows the agent would see, only
// filtered, ordered and cut. One statement per page: the window count gives the filtered total beside the rows.
import type { Knex } from 'knex';
import { CSV_ROW_CAP, type TablePage, type TableSpec, type TableView } from '../lib/table-query.js';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface TableWindow {
  limit: number;
  offset: number;
}

/** The window of one page of `view`; the CSV window is every row from the start, one past the cap (to know it was cut). */
export const pageWindow = (view: TableView): TableWindow => ({ limit: view.pageSize, offset: (view.page - 1) * view.pageSize });
export const csvWindow: TableWindow = { limit: CSV_ROW_CAP + 1, offset: 0 };

export async function pageOf<Row>(
  db: Knex,
  base: Knex.QueryBuilder,
  spec: TableSpec,
  view: TableView,
  window: TableWindow,
): Promise<TablePage<Row>> {
  const q = db.from(base.as('t')).select('t.*', db.raw('count(*) over () as table_total'));
  if (view.search) {
    const pattern = `%${escapeLike(view.search)}%`;
    void q.where((w) => {
      for (const col of spec.searchable) void w.orWhereRaw("??::text ilike ? escape '\\'", [`t.${col}`, pattern]);
    });
  }
  const sort = spec.sortable.includes(view.sort) ? view.sort : spec.defaultSort;
  void q.orderByRaw(`?? ${view.dir === 'asc' ? 'asc' : 'desc'} nulls last`, [`t.${sort}`]);
  if (sort !== spec.key) void q.orderBy(`t.${spec.key}`, view.dir);
  const rows = (await q.limit(window.limit).offset(window.offset)) as (Row & { table_total?: string | number })[];
  const total = rows.length ? Number(rows[0]!.table_total) : 0;
  for (const r of rows) delete r.table_total;
  return { rows, total };
}
