// The asset-upload link uploads (issue 24): the page behind svc_get_asset_upload_link has a file form; the same URL
// takes a multipart POST from a script (up to ten files, the dashboard's limits: ASSET_MAX_BYTES, type by content,
// all stored or none); the POST that stores spends the link; tampered and expired links are 401 / 410; the files then
// appear in svc_list_assets.
import test from 'ava';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { assetStorage, LocalDiskStorage } from '../../clients/asset-storage.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES } from '../../lib/scopes.js';
import { createSignedLink } from '../../lib/signed-links.js';
import { request } from '../helpers/http.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const MAX = 4096;
const { h } = useSeededHarness(test, { worker: false, env: { ASSET_MAX_BYTES: String(MAX) } });

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');

async function account() {
  const app = await seedApp(h().db);
  const { key } = await createAgentKey(h().db, { orgId: app.org_id, name: 'assets', scopes: SCOPES });
  const link = async () =>
    (await request(h().baseUrl, 'POST', `/api/agent/apps/${app.app_id}/asset-upload-link`, { token: key })).body.url as string;
  const listed = async () =>
    (await request(h().baseUrl, 'GET', `/api/agent/apps/${app.app_id}/assets`, { token: key })).body.assets as {
      id: string;
      mime_type: string;
      title: string | null;
    }[];
  return { ...app, key, link, listed };
}

function form(files: [string, Buffer][], fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const [name, data] of files) body.append('file', new Blob([new Uint8Array(data)]), name);
  return body;
}

/** What a script does: curl -F file=@a.png -F file=@b.pdf URL. */
async function post(url: string, body: FormData, accept = 'application/json') {
  const res = await fetch(url, { method: 'POST', body, headers: { accept } });
  const text = await res.text();
  return { status: res.status, text, body: accept === 'application/json' ? JSON.parse(text) : undefined };
}

async function storedFiles(appId: string): Promise<string[]> {
  const root = (assetStorage(h().config) as LocalDiskStorage).root;
  return readdir(path.join(root, appId)).catch(() => []);
}

test(
  'a script POSTs several files to the link: stored with types ' + 'from their content, listed by svc_list_assets; the link is spent',
  async (t) => {
    const a = await account();
    const url = await a.link();
    const page = await request(h().baseUrl, 'GET', url.slice(h().baseUrl.length), { headers: { accept: 'text/html' } });
    t.is(page.status, 200);
    t.regex(page.text, /<form id="asset-upload" method="post" action="[^"]+" enctype="multipart\/form-data">/);
    t.regex(page.text, /name="file" type="file" multiple/);

    const res = await post(
      url,
      form(
        [
          ['logo.png', PNG],
          ['brief.pdf', PDF],
          ['photo.gif', JPEG],
        ],
        { category: 'banner' },
      ),
    );
    t.is(res.status, 201, res.text);
    t.is(res.body.uploaded, 3);
    t.deepEqual(
      res.body.assets.map((x: { mime_type: string }) => x.mime_type),
      ['image/png', 'application/pdf', 'image/jpeg'],
      'judged by content, not name',
    );
    const listed = await a.listed();
    t.deepEqual(listed.map((x) => x.id).sort(), res.body.assets.map((x: { id: string }) => x.id).sort());
    t.is((await storedFiles(a.app_id)).length, 3);
    const row = await h().db('assets').where('id', res.body.assets[0].id).first();
    t.like(row, { org_id: a.org_id, category: 'banner', type: 'image', uploaded_by: 'asset-upload-link', size_bytes: PNG.length });

    const again = await post(url, form([['more.png', PNG]]));
    t.is(again.status, 410);
    t.regex(again.body.detail, /already been used/);
    t.is((await a.listed()).length, 3);
    const reopened = await request(h().baseUrl, 'GET', url.slice(h().baseUrl.length), { headers: { accept: 'text/html' } });
    t.is(reopened.status, 410);
  },
);

test(
  'limits before anything is stored: more than ten files, a ' + 'file over the limit, a file of no known type; the link still works',
  async (t) => {
    const a = await account();
    const url = await a.link();
    const eleven = await post(url, form(Array.from({ length: 11 }, (_, i): [string, Buffer] => [`f${i}.png`, PNG])));
    t.is(eleven.status, 413, eleven.text);
    t.regex(eleven.body.detail, /At most 10/);
    const big = await post(
      url,
      form([
        ['ok.png', PNG],
        ['big.png', Buffer.concat([PNG, Buffer.alloc(MAX)])],
      ]),
    );
    t.is(big.status, 413);
    const html = await post(
      url,
      form([
        ['ok.png', PNG],
        ['page.png', Buffer.from('<html><script>alert(1)</script></html>')],
      ]),
    );
    t.is(html.status, 415);
    t.regex(html.body.detail, /page\.png/);
    const none = await post(url, form([['empty.png', Buffer.alloc(0)]]));
    t.is(none.status, 422);
    t.is((await a.listed()).length, 0);
    t.deepEqual(await storedFiles(a.app_id), [], 'nothing stored for refused uploads');

    const ten = await post(url, form(Array.from({ length: 10 }, (_, i): [string, Buffer] => [`f${i}.png`, PNG])));
    t.is(ten.status, 201, 'refusals did not spend the link');
    t.is((await a.listed()).length, 10);
  },
);

test('two POSTs race on one link: one stores, the other is 410 and its stored files are removed again', async (t) => {
  const a = await account();
  const url = await a.link();
  const results = await Promise.all([
    post(
      url,
      form([
        ['a.png', PNG],
        ['b.pdf', PDF],
      ]),
    ),
    post(
      url,
      form([
        ['c.png', PNG],
        ['d.pdf', PDF],
      ]),
    ),
  ]);
  t.deepEqual(results.map((r) => r.status).sort(), [201, 410]);
  t.is((await a.listed()).length, 2);
  t.is((await storedFiles(a.app_id)).length, 2, 'the loser left no file behind');
});

test('tampered links are 401 and expired ones 410, for scripts and for the form (a page)', async (t) => {
  const a = await account();
  const url = new URL(await a.link());
  url.searchParams.set('app', (await seedApp(h().db)).app_id);
  t.is((await post(url.href, form([['a.png', PNG]]))).status, 401);
  const page = await post(url.href, form([['a.png', PNG]]), 'text/html');
  t.is(page.status, 401);
  t.regex(page.text, /Nothing was uploaded/);
  const expired = createSignedLink({
    masterKey: h().config.SVC_MASTER_KEY!,
    dashboardUrl: h().config.DASHBOARD_URL,
    purpose: 'asset-upload',
    org: a.org_id,
    app: a.app_id,
    now: new Date(Date.now() - 20 * 60_000),
  });
  t.is((await post(expired.url, form([['a.png', PNG]]))).status, 410);
  t.is((await post(expired.url, form([['a.png', PNG]]), 'text/html')).status, 410);
  t.is((await a.listed()).length, 0);
});
