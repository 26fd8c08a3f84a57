// URLs from data on the dashboard pages (api/view-kit/html.tsx safeUrl): escaping does not make a `javascript:` href safe, so
// a link built from a stored URL keeps its href only for http(s). Agent-writable URL fields accept any URI (the
// schemas' `format: uri`): the agent stores `javascript:` in an app's store and web URLs, and an asset row carries
// one; no page turns either into a live link, while an https asset link keeps its href.
import test from 'ava';
import { signInDashboard, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let owner: DashboardSession;
const EVIL = 'javascript:alert(document.cookie)';

test.before(async () => {
  await h.ready();
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
});

const hrefs = (html: string) => [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!);

test('a javascript: URL written by an agent or stored on an asset is never a live link on the dashboard', async (t) => {
  const patched = await request(h().baseUrl, 'PATCH', `/api/agent/apps/${seed.app_id}`, {
    token: seed.agent_key,
    body: { web_url: EVIL, ios_store_url: 'javascript:void(0)' },
  });
  t.is(patched.status, 200, 'the agent API accepts any URI in these fields');
  const [evil] = await h()
    .db('assets')
    .insert({ app_id: seed.app_id, org_id: seed.org_id, type: 'image', title: 'Evil', url: EVIL })
    .returning('id');
  const [good] = await h()
    .db('assets')
    .insert({ app_id: seed.app_id, org_id: seed.org_id, type: 'image', title: 'Good', url: 'https://cdn.example/a.png' })
    .returning('id');
  const pages = ['/dashboard', `/dashboard/apps/${seed.app_id}`, `/dashboard/assets?app=${seed.app_id}`];
  for (const path of pages) {
    const res = await owner.browser.fetch(`${h().baseUrl}${path}`);
    t.is(res.status, 200, path);
    t.deepEqual(
      hrefs(res.text).filter((u) => !/^(https?:|\/|#|$)/.test(u)),
      [],
      `${path}: every href is http(s) or our own path`,
    );
    t.false(/javascript:/i.test(hrefs(res.text).join(' ')), path);
  }
  const assets = (await owner.browser.fetch(`${h().baseUrl}/dashboard/assets?app=${seed.app_id}`)).text;
  const row = (id: string) => new RegExp(`<tr data-asset="${id}">(.*?)</tr>`).exec(assets)?.[1] ?? '';
  t.true(row(evil.id).includes('<a rel="noopener noreferrer">link</a>'), 'the javascript: link is shown without its href');
  t.true(row(good.id).includes('<a href="https://cdn.example/a.png" rel="noopener noreferrer">link</a>'), 'an https link keeps it');
});
