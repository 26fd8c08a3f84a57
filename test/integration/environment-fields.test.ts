// An Xcode purchase reads SANDBOX in every API field (spec: environment is SANDBOX or PRODUCTION), whoever asks:
// events/recent and verify-user-conversions over REST and through the tool server, integration-status, the client
// API's recent-conversions, and the dashboard's event stream; only the dashboard's own cells add the store's word
// ("SANDBOX (Xcode)"). One rule owns it: lib/api-environment.ts, applied where db/recent-events.ts reads the rows.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { signInDashboard } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok } from '../helpers/mcp.js';
import { sdkClient } from '../helpers/sdk.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { openSse } from '../helpers/sse.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test, { caches: true });

const agent = (path: string) => request(h().baseUrl, 'GET', `/api/agent${path}`, { token: seed.agent_key });
const STORE_WORDS = /XCODE|LOCAL_TESTING/;

async function storePurchase(user: string, environment: 'XCODE' | 'LOCAL_TESTING'): Promise<string> {
  const res = await sendWebhook(
    h().baseUrl,
    seed.app_id,
    seed.webhook_secret,
    subscription(user, seed.creator_code)('initial_purchase', { environment }),
  );
  if (res.status !== 200) throw new Error(`webhook ${res.status}: ${res.text}`);
  return res.body.event_id as string;
}

test('an Xcode or local-testing purchase is SANDBOX in every API field; the dashboard adds the store word', async (t) => {
  const session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const stream = await openSse(`${h().baseUrl}/dashboard/apps/${seed.app_id}/events/stream`, { cookie: session.cookie });
  t.is(stream.status, 200);
  const user = `xcode-${randomUUID()}`;
  const eventId = await storePurchase(user, 'XCODE');
  const localUser = `local-${randomUUID()}`;
  await storePurchase(localUser, 'LOCAL_TESTING');
  t.is((await h().db('purchase_events').where('id', eventId).first()).environment, 'XCODE', 'the store environment is kept as received');

  // Agent REST: events/recent (unfiltered and filtered) and verify-user-conversions.
  for (const query of ['', '?environment=SANDBOX']) {
    const recent = await agent(`/apps/${seed.app_id}/events/recent?limit=100${query.replace('?', '&')}`);
    t.is(recent.status, 200, recent.text);
    const mine = recent.body.webhooks.find((w: { event_id: string }) => w.event_id === eventId);
    t.like(mine, { environment: 'SANDBOX', attributed: true }, query);
    t.is(mine.store_environment, undefined, 'the raw value stays inside');
    t.notRegex(recent.text, STORE_WORDS, `events/recent${query}`);
  }
  const verify = await agent(`/apps/${seed.app_id}/verify-user-conversions?app_user_id=${user}`);
  t.is(verify.status, 200, verify.text);
  t.deepEqual(
    verify.body.conversions.map((c: { environment: string }) => c.environment),
    ['SANDBOX'],
  );
  t.deepEqual(
    verify.body.events.map((e: { environment: string }) => e.environment),
    ['SANDBOX'],
  );
  t.notRegex(verify.text, STORE_WORDS);
  const local = await agent(`/apps/${seed.app_id}/verify-user-conversions?app_user_id=${localUser}`);
  t.like(local.body.events[0], { environment: 'SANDBOX' });
  const status = await agent(`/apps/${seed.app_id}/integration-status`);
  t.is(status.status, 200);
  t.notRegex(status.text, STORE_WORDS, 'integration-status evidence names SANDBOX too');

  // The tool server answers through the same handlers.
  const mcp = await connectMcp(h().baseUrl, seed.agent_key);
  try {
    const tool = ok(await mcp.call('svc_recent_events', { app_id: seed.app_id, limit: 100 }));
    t.like(
      tool.webhooks.find((w: { event_id: string }) => w.event_id === eventId),
      { environment: 'SANDBOX' },
    );
    t.notRegex(JSON.stringify(tool), STORE_WORDS);
    const verified = ok(await mcp.call('svc_verify_user_conversions', { app_id: seed.app_id, app_user_id: user }));
    t.notRegex(JSON.stringify(verified), STORE_WORDS);
  } finally {
    await mcp.close();
  }

  // Client API.
  const conversions = await sdkClient(h().baseUrl, seed.sdk_key).get(`/recent-conversions?app_user_id=${user}`);
  t.like(conversions.body.conversions[0], { environment: 'SANDBOX', is_test: true });

  // The dashboard's stream: the API's shape in `event`, the store's word only in the row's markup.
  const message = await stream.waitUntil((m) => (JSON.parse(m.data) as { event: { event_id: string } }).event.event_id === eventId);
  const streamed = JSON.parse(message.data) as { event: Record<string, unknown>; html: string };
  t.is(streamed.event.environment, 'SANDBOX');
  t.notRegex(JSON.stringify(streamed.event), STORE_WORDS);
  t.regex(streamed.html, /SANDBOX \(Xcode\)/);
  stream.close();
  const page = await request(h().baseUrl, 'GET', `/dashboard/apps/${seed.app_id}/events/history?q=${localUser}`, {
    headers: { cookie: session.cookie, accept: 'text/html' },
  });
  t.is(page.status, 200);
  t.regex(page.text, /SANDBOX \(local testing\)/);
});
