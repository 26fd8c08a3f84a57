// svc_validate_store_credentials through the tool server streams its workflow like svc_test_integration does: the
// credential-check workflow id first (to open in the Temporal UI), each step as it completes, then done.
import test from 'ava';
import { connectMcp, ok } from '../helpers/mcp.js';
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
    t.true(messages.some((m) => /^step: \w+ done$/.test(m)), 'at least one step reported done');
    t.is(messages.at(-1), `done: workflow credential-check/${a.app_id}/ios`);
  } finally {
    await mcp.close();
  }
});
