// The creator portal's tenancy over real HTTP (docs/creator-portal.md "A creator is its own principal"): two
// creators and two organizations, with commissions earned by the real worker and paid by payout runs. A creator
// reaches every campaign their address joined, across organizations, each kept apart; another creator's or
// organization's campaigns, payouts, statements and assets are 404. A creator session (cookie or bearer) is 401 on
// every other surface (each dashboard page and form, each dashboard REST row, each agent endpoint, /mcp), and no
// other credential (dashboard session, agent key, SDK key) is admitted by any portal path.
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { koaPath } from '../../api/agent/routes.js';
import { portalRoutes } from '../../api/creator-portal/routes.js';
import { webRoutes } from '../../api/dashboard/routes.js';
import { assetStorage, newAssetKey } from '../../clients/asset-storage.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { insertAsset, setAssetFeatured } from '../../db/assets-writes.js';
import { addCreatorCode } from '../../db/creators-writes.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { SCOPES } from '../../lib/scopes.js';
import { Browser } from '../helpers/browser.js';
import { signInCreator, type CreatorSession } from '../helpers/creator-portal.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { makePayableCommission } from '../helpers/payable.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, {
  env: { HOLDING_PERIOD_DAY_MS: '300', TRUST_PROXY: 'true', ASSET_STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'svc-portal-assets-')) },
});

interface World {
  o1: SeededApp;
  o2: SeededApp;
  o2b: SeededApp;
  a: CreatorSession;
  b: CreatorSession;
  payoutA: string;
  payoutB: string;
  asset1: string;
  asset3: string;
}
let world: Promise<World> | undefined;

const emailOf = async (id: string) => (await h().db('creators').where('id', id).first('email')).email as string;

async function feature(app: SeededApp): Promise<string> {
  const key = newAssetKey(app.app_id, 'png');
  await assetStorage(h().config).put(key, Buffer.from('89504e470d0a1a0a', 'hex'));
  const asset = await insertAsset(h().db, {
    appId: app.app_id,
    orgId: app.org_id,
    type: 'image',
    category: 'banner',
    title: `Banner ${app.app_id}`,
    description: null,
    storageKey: key,
    mimeType: 'image/png',
    sizeBytes: 8,
    uploadedBy: 'test',
  });
  await setAssetFeatured(h().db, asset.id, true);
  return asset.id;
}

/** O1 has campaign C1 (creator A); O2 has C2 (A joined it too) and C3 on another app (creator B only). */
function setUp(): Promise<World> {
  return (world ??= (async () => {
    await h.ready();
    const db = h().db;
    const o1 = await seedApp(db);
    const o2 = await seedApp(db);
    const o2b = await seedApp(db, { orgId: o2.org_id });
    await addCreatorCode(db, {
      appId: o2.app_id,
      campaignId: o2.campaign_id,
      creatorId: o1.creator_id,
      code: `A${o1.creator_code.slice(-8)}`.replace(/-/g, 'X'),
      source: 'join',
    });
    await makePayableCommission(db, h().baseUrl, o1, `tenancy-a-${o1.app_id}`);
    await makePayableCommission(db, h().baseUrl, o2b, `tenancy-b-${o2b.app_id}`);
    for (const c of [o1.creator_id, o2b.creator_id]) await connectTestAccount(db, c);
    const payoutA = (await runPayoutRun({ db }, { orgId: o1.org_id, runId: `t-${o1.org_id}` })).payouts[0]!.payout_id!;
    const payoutB = (await runPayoutRun({ db }, { orgId: o2.org_id, runId: `t-${o2.org_id}` })).payouts[0]!.payout_id!;
    const [asset1, asset3] = [await feature(o1), await feature(o2b)];
    const a = await signInCreator(h().baseUrl, db, await emailOf(o1.creator_id), '198.51.100.10');
    const b = await signInCreator(h().baseUrl, db, await emailOf(o2b.creator_id), '198.51.100.11');
    return { o1, o2, o2b, a, b, payoutA, payoutB, asset1, asset3 };
  })());
}

const get = (p: string, headers: Record<string, string>) =>
  fetch(`${h().baseUrl}${p}`, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
const asCreator = (s: CreatorSession) => ({ cookie: `svc_creator=${s.token}` });

test("each creator reaches their own campaigns, payouts, statements and assets; everyone else's are 404", async (t) => {
  const w = await setUp();
  const campaign = (id: string) => `/dashboard/creator/campaigns/${id}`;
  const statement = (id: string) => `/dashboard/creator/payouts/${id}`;
  const mine: [CreatorSession, string[]][] = [
    [
      w.a,
      [
        campaign(w.o1.campaign_id),
        campaign(w.o2.campaign_id),
        `${campaign(w.o1.campaign_id)}/qr.svg`,
        statement(w.payoutA),
        `${statement(w.payoutA)}/statement.csv`,
        `/dashboard/creator/assets/${w.asset1}/file`,
      ],
    ],
    [
      w.b,
      [
        campaign(w.o2b.campaign_id),
        `${campaign(w.o2b.campaign_id)}/qr.svg`,
        statement(w.payoutB),
        `${statement(w.payoutB)}/statement.csv`,
        `/dashboard/creator/assets/${w.asset3}/file`,
      ],
    ],
  ];
  for (const [self, paths] of mine) {
    const other = self === w.a ? mine[1]! : mine[0]!;
    for (const p of paths) t.is((await get(p, asCreator(self))).status, 200, `own ${p}`);
    for (const p of other[1]) {
      if (self === w.b && p === campaign(w.o2.campaign_id)) continue; // listed for A; B never joined it (checked below)
      t.is((await get(p, asCreator(self))).status, 404, `another creator's ${p}`);
    }
  }
  t.is((await get(campaign(w.o2.campaign_id), asCreator(w.b))).status, 404, "a campaign of B's organization that B did not join");
  t.is((await get(campaign(seed.campaign_id), asCreator(w.a))).status, 404, "a third organization's campaign");
  t.is((await get('/dashboard/creator/payouts/pout_nope', asCreator(w.a))).status, 404);
});

test('one sign-in reaches every campaign the address joined, across organizations, each kept apart', async (t) => {
  const w = await setUp();
  const home = await (await get('/dashboard/creator', asCreator(w.a))).text();
  const section = (org: string) => new RegExp(`data-org="${org}"[\\s\\S]*?</section>`).exec(home)?.[0] ?? '';
  t.true(section(w.o1.org_id).includes(`/dashboard/creator/campaigns/${w.o1.campaign_id}`));
  t.false(section(w.o1.org_id).includes(w.o2.campaign_id));
  t.true(section(w.o2.org_id).includes(`/dashboard/creator/campaigns/${w.o2.campaign_id}`));
  t.false(home.includes(w.o2b.campaign_id), "not B's campaign");
  const c1 = await (await get(`/dashboard/creator/campaigns/${w.o1.campaign_id}`, asCreator(w.a))).text();
  const c2 = await (await get(`/dashboard/creator/campaigns/${w.o2.campaign_id}`, asCreator(w.a))).text();
  t.true(c1.includes(`/dashboard/creator/payouts/${w.payoutA}`), "O1's payout on O1's campaign");
  t.false(c2.includes(w.payoutA), "O1's payout never on O2's campaign");
  t.false(c2.includes(w.payoutB), "nor B's payout from O2");
  t.regex(c2, /No payout from/);
  const appUser = await h()
    .db('commissions as c')
    .join('conversions as v', 'v.id', 'c.conversion_id')
    .where('c.creator_id', w.o1.creator_id)
    .first('v.app_user_id');
  t.false(c1.includes(appUser.app_user_id as string), "no end user's id on the page");
});

test('a creator session is 401 on every dashboard page, form and REST row, every agent endpoint and /mcp', async (t) => {
  const w = await setUp();
  const fill = (p: string) => p.replace(/:(\w+)/g, 'x_1');
  const targets: { method: string; path: string }[] = [
    ...webRoutes().stack.flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: fill(String(l.path)) }))),
    ...AGENT_ENDPOINTS.map((e) => ({ method: e.method.toUpperCase(), path: fill(`/api/agent${koaPath(e.path)}`) })),
    { method: 'POST', path: '/mcp' },
    { method: 'GET', path: '/mcp' },
    { method: 'GET', path: '/api/grants' },
  ];
  t.true(targets.length > 100, `walked ${targets.length} routes`);
  const refused: string[] = [];
  for (const creds of [{ cookie: `svc_creator=${w.a.token}` }, { authorization: `Bearer ${w.a.token}` }] as Record<string, string>[]) {
    for (const { method, path: p } of targets) {
      const res = await fetch(`${h().baseUrl}${p}`, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...creds },
        body: method === 'GET' ? undefined : '{}',
        redirect: 'manual',
      });
      if (res.status !== 401) refused.push(`${method} ${p} -> ${res.status} (${Object.keys(creds)[0]})`);
    }
  }
  t.deepEqual(refused, [], 'every surface but the portal answers 401 to a creator session');
});

test(
  'no other credential is admitted by the portal: dashboard session, ' +
    'agent key and SDK key are 401; the dashboard cookie is not read there',
  async (t) => {
    const w = await setUp();
    const dash = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
    const sessionToken = dash.browser.cookies.get('svc_session')!;
    const agent = await createAgentKey(h().db, { orgId: w.o1.org_id, name: 'walk', scopes: SCOPES });
    const paths = portalRoutes().stack.flatMap((l) =>
      l.methods
        .filter((m) => m !== 'HEAD')
        .map((method) => ({
          method,
          path: String(l.path).replace(':campaign_id', w.o1.campaign_id).replace(':payout_id', w.payoutA).replace(':asset_id', w.asset1),
        })),
    );
    t.true(paths.length >= 12, `walked ${paths.length} portal routes`);
    const admitted: string[] = [];
    for (const token of [sessionToken, agent.key, w.o1.sdk_key]) {
      for (const { method, path: p } of paths) {
        const res = await fetch(`${h().baseUrl}${p}`, {
          method,
          headers: { authorization: `Bearer ${token}`, accept: 'text/html' },
          redirect: 'manual',
        });
        if (res.status !== 401) admitted.push(`${method} ${p} -> ${res.status} (${token.slice(0, 7)})`);
      }
    }
    t.deepEqual(admitted, []);
    const withDashboardCookie = await new Browser().fetch(`${h().baseUrl}/dashboard/creator/campaigns/${w.o1.campaign_id}`, {
      headers: { cookie: dash.cookie },
    });
    t.is(withDashboardCookie.status, 302, 'a dashboard session in the browser is no creator: sign in first');
    t.is(withDashboardCookie.location, `${h().baseUrl}/dashboard/creator/sign-in`);
  },
);

test(
  'a campaign page shows bonus progress and featured assets; the QR ' +
    'code is an SVG file; the statement CSV is escaped against formulas',
  async (t) => {
    const w = await setUp();
    await h()
      .db('bonus_rules')
      .insert({ campaign_id: w.o1.campaign_id, name: 'Two sales', threshold_conversions: 2, bonus_micros: 5_000_000 });
    const page = await (await get(`/dashboard/creator/campaigns/${w.o1.campaign_id}`, asCreator(w.a))).text();
    const bonuses = /<table id="bonuses">[\s\S]*?<\/table>/.exec(page)?.[0] ?? '';
    t.regex(bonuses, /Two sales/);
    t.regex(bonuses, /1 of 2/, 'one production conversion counted towards two');
    t.regex(bonuses, /not reached yet/);
    t.true(page.includes(`/dashboard/creator/assets/${w.asset1}/file`), 'the featured asset to download');
    t.false(page.includes(w.asset3), "not another app's asset");
    const qr = await get(`/dashboard/creator/campaigns/${w.o1.campaign_id}/qr.svg`, asCreator(w.a));
    t.is(qr.headers.get('content-type'), 'image/svg+xml');
    t.regex(
      await qr.text(),
      /^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"[^>]*><rect[^>]*><\/rect><path d="M/,
    );
    await h().db('campaigns').where('id', w.o1.campaign_id).update({ name: '=HYPERLINK("http://x")' });
    const csv = await (await get(`/dashboard/creator/payouts/${w.payoutA}/statement.csv`, asCreator(w.a))).text();
    t.true(csv.includes(`'=HYPERLINK(""http://x"")`), csv);
    await h().db('campaigns').where('id', w.o1.campaign_id).update({ name: 'Test campaign' });
  },
);
