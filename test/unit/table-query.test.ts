import test from 'ava';
import { PAGE_SIZE, readTableView, viewQuery, wantsCsv, type TableSpec } from '../../lib/table-query.js';

const SPEC: TableSpec = { sortable: ['name', 'joined_at'], searchable: ['name'], defaultSort: 'joined_at', defaultDir: 'desc', key: 'id' };

test('a view read from the query: listed sort columns only, directions, pages from 1, search trimmed', (t) => {
  t.deepEqual(readTableView({}, SPEC), { search: undefined, sort: 'joined_at', dir: 'desc', page: 1, pageSize: PAGE_SIZE });
  t.deepEqual(readTableView({ q: '  ana ', sort: 'name', page: '3' }, SPEC), {
    search: 'ana',
    sort: 'name',
    dir: 'asc',
    page: 3,
    pageSize: PAGE_SIZE,
  });
  t.like(readTableView({ sort: 'email; drop table x', dir: 'sideways', page: '-2' }, SPEC), { sort: 'joined_at', dir: 'desc', page: 1 });
  t.like(readTableView({ sort: ['name', 'joined_at'], dir: 'desc', page: '2.5' }, SPEC), { sort: 'name', dir: 'desc', page: 1 });
  t.is(readTableView({ q: 'x'.repeat(500) }, SPEC).search?.length, 200);
  t.is(readTableView({ q: '   ' }, SPEC).search, undefined);
});

test('links keep the filters and the view, defaults left out; the CSV link drops the page', (t) => {
  const view = readTableView({ q: 'a&b', sort: 'name', dir: 'asc', page: '2' }, SPEC);
  t.is(viewQuery(view, SPEC, { org: 'org_1', environment: undefined }), '?org=org_1&q=a%26b&sort=name&dir=asc&page=2');
  t.is(viewQuery(view, SPEC, {}, { csv: true }), '?q=a%26b&sort=name&dir=asc&format=csv');
  t.is(viewQuery(readTableView({}, SPEC), SPEC), '');
  t.true(wantsCsv({ format: 'csv' }));
  t.false(wantsCsv({ format: 'json' }));
});
