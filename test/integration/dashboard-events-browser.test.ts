// The real-time events view in a real browser (playwright-core driving Chromium): a purchase webhook sent by the
// test appears in the open page without a reload, attributed, with its link to the conversion workflow in the
// Temporal UI; then the page's API server stops (its event stream with it) while another API process takes a
// purchase, and comes back on the same port with a fresh LISTEN connection: the page resumes with Last-Event-ID
// and shows every feed entry exactly once, in order. Screenshots: test-output/screenshots/.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { closeServer, createApp, listen } from '../../api/app.js';
import { AppChangeFeed } from '../../runtime/app-change-feed.js';
import { launchChromium, screenshot, signInInBrowser } from '../helpers/chromium.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const TEMPORAL_UI_URL = 'http://127.0.0.1:8233';
const { h, seed } = useSeededHarness(test, { caches: true, env: { TEMPORAL_UI_URL } });
let browser: Browser;
let page: Page;
const cleanups: (() => Promise<void>)[] = [];

test.before(async () => {
  await h.ready();
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
});
test.after.always(async () => {
  await browser?.close();
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

const eventsPath = () => `/dashboard/apps/${seed.app_id}/events`;
const feedSeqsAfter = async (seq: number) =>
  (await h().db('app_event_feed').where('app_id', seed.app_id).andWhere('seq', '>', seq).orderBy('seq').pluck('seq')).map(Number);
const buy = async (baseUrl: string) => {
  const res = await sendWebhook(
    baseUrl,
    seed.app_id,
    seed.webhook_secret,
    subscription(`buyer-${randomUUID()}`, seed.creator_code)('initial_purchase'),
  );
  if (res.status !== 200) throw new Error(`webhook ${res.status}: ${res.text}`);
  return res.body.event_id as string;
};
const row = (eventId: string) => page.locator(`#live-events tr[data-event-id="${eventId}"]`);

/** An API process of our own on `port` (0: any), with its own change feed, over the harness's database and Temporal. */
async function startApi(port: number): Promise<{ server: Server; url: string; stop: () => Promise<void> }> {
  const feed = new AppChangeFeed(h().database.url, h().logger);
  await feed.start();
  const app = createApp({ config: h().config, db: h().db, temporal: h().temporal, logger: h().logger, appChanges: feed });
  const server = await listen(app, port, '127.0.0.1');
  const stop = async () => {
    await closeServer(server, 1000);
    await feed.close();
  };
  cleanups.push(stop);
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop };
}

let startCursor = 0;

test.serial('a purchase webhook appears in the open page without a reload, attributed, linked to its workflow', async (t) => {
  await signInInBrowser(page, h().baseUrl, seed.user_email, seed.user_password);
  await page.goto(`${h().baseUrl}${eventsPath()}`);
  await page.locator('#live-status', { hasText: 'live' }).waitFor();
  startCursor = Number(await page.locator('#live-events').getAttribute('data-cursor'));
  // Every row the stream inserts is recorded, to check order, gaps and repeats at the end; a reload would lose it.
  await page.evaluate(`(() => {
    window.streamed = [];
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) if (n.dataset && n.dataset.seq) window.streamed.push(Number(n.dataset.seq));
    }).observe(document.querySelector('#live-events tbody'), { childList: true });
  })()`);
  await screenshot(page, 'events-01-open');

  t.is(
    (await sdkClient(h().baseUrl, seed.sdk_key).post('/event', { event_type: 'paywall_viewed', app_user_id: 'u-browser', platform: 'ios' }))
      .status,
    200,
  );
  const eventId = await buy(h().baseUrl);
  await row(eventId).locator('.attribution', { hasText: 'attributed' }).waitFor();
  t.is(await row(eventId).count(), 1);
  t.regex((await row(eventId).textContent()) ?? '', new RegExp(seed.creator_code));
  const conversion = await h()
    .db('purchase_events')
    .join('conversions', 'conversions.id', 'purchase_events.conversion_id')
    .where('purchase_events.id', eventId)
    .first('conversions.workflow_id');
  t.is(
    await row(eventId).getByRole('link', { name: 'workflow' }).getAttribute('href'),
    `${TEMPORAL_UI_URL}/namespaces/${h().config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(conversion.workflow_id)}`,
  );
  t.truthy(await page.evaluate('window.streamed'), 'same document: no reload happened');
  await screenshot(page, 'events-02-purchase-live');
});

test.serial(
  'the stream survives a restart of its API server: the page catches up on a purchase taken meanwhile, no gap, no repeat',
  async (t) => {
    const port = (h().server.address() as AddressInfo).port;
    const other = await startApi(0);
    await closeServer(h().server, 1000);
    await page.locator('#live-status', { hasText: 'reconnecting' }).waitFor();
    // Taken by another API process while the page's server is down.
    const whileDown = await buy(other.url);
    await screenshot(page, 'events-03-server-down');
    await startApi(port);
    await row(whileDown).locator('.attribution', { hasText: 'attributed' }).waitFor({ timeout: 30_000 });
    await page.locator('#live-status', { hasText: 'live' }).waitFor();
    const afterRestart = await buy(`http://127.0.0.1:${port}`);
    await row(afterRestart).locator('.attribution', { hasText: 'attributed' }).waitFor();
    await screenshot(page, 'events-04-after-restart');

    const expected = await feedSeqsAfter(startCursor);
    const streamed = await page.evaluate<number[]>('window.streamed');
    t.deepEqual(streamed, expected, 'every feed entry since the page loaded, once each, in order');
    for (const id of [whileDown, afterRestart]) t.is(await row(id).count(), 1);
    t.is(await page.locator('#live-events').getAttribute('data-cursor'), String(expected.at(-1)));
    await other.stop();
  },
);
