// svc_validate_store_credentials through the tool server streams its workflow like svc_test_integration does: the
// credential-check workflow id first (to open in the Temporal UI), each step as it completes, then done.
import test from 'ava';
import { connectMcp, messagesOf, modernMessage, ok, postModern } from '../helpers/mcp.js';
import { useStoreWorld, storeAccount, switchToStoreDirect } from '../helpers/store-direct.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h } = useSeededHarness(test);
const world = useStoreWorld(test, h);

test('svc_validate_store_credentials streams the credential-check workflow and returns its id', async (t) => {
  const a = await storeAccount(h());
  await switchToStoreDirect(h(), world(), a, 'ios');
  const mcp = await connectMcp(h().baseUrl, a.agentKey);
  try {
    const progress: { progress: number; message?: string }[] = [];
    const checked = ok(await mcp.call('svc_validate_store_credentials', { app_id: a.app_id, platform: 'ios' }, (p) => progress.push(p)));
    t.like(checked, { status: 'ok', passed: true, workflow_id: `credential-check/${a.app_id}/ios` });
    const messages = progress.map((p) => p.message ?? '');
    t.log(messages.join(' | '));
    t.true(messages[0]!.startsWith(`started: workflow credential-check/${a.app_id}/ios`), messages[0]);
    t.true(
      messages.some((m) => /^step: \w+ done$/.test(m)),
      'at least one step reported done',
    );
    t.is(messages.at(-1), `done: workflow credential-check/${a.app_id}/ios`);
  } finally {
    await mcp.close();
  }
});

test("in the 2026-07-28 era (no initialize) the progress rides the POST's own SSE answer, then the result", async (t) => {
  const a = await storeAccount(h());
  await switchToStoreDirect(h(), world(), a, 'android');
  const message = modernMessage(
    5,
    'tools/call',
    { name: 'svc_validate_store_credentials', arguments: { app_id: a.app_id, platform: 'android' } },
    { progressToken: 'check-1' },
  );
  const res = await postModern(h().baseUrl, message, { token: a.agentKey });
  t.is(res.status, 200, res.text);
  t.regex(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const messages = messagesOf(res);
  const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
  t.true(progress.every((p) => p.progressToken === 'check-1'));
  t.true(progress[0].message.startsWith(`started: workflow credential-check/${a.app_id}/android`), progress[0].message);
  t.is(progress.at(-1).message, `done: workflow credential-check/${a.app_id}/android`);
  const last = messages.at(-1);
  t.is(last.id, 5);
  t.like(last.result.structuredContent, { status: 'ok', passed: true, workflow_id: `credential-check/${a.app_id}/android` });
});
