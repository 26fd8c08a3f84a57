// The agent scenario of the tool-server proof again, on an OAuth token obtained through the real sign-in and consent
// pages with one scope (billing:read) unticked: the tool that needs it fails naming the scope (and doctor lists it
// as missing); everything else still takes a new app from nothing to live.
import test from 'ava';
import { agentScenario } from '../helpers/agent-scenario.js';
import { connectMcp, ok, textOf } from '../helpers/mcp.js';
import { authorizeMcpClient, TestOAuthProvider } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { useStoreWorld } from '../helpers/store-direct.js';

const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' } });
// Apple's API, Google and the ECB as stubs, for the scenario's store-direct purchase.
const world = useStoreWorld(test, h);

test('an OAuth token with billing:read unticked: the wallet tool fails naming it; the rest reach live', async (t) => {
  const provider = new TestOAuthProvider();
  await authorizeMcpClient(h().baseUrl, provider, { email: seed.user_email, password: seed.user_password, untick: ['billing:read'] });
  const mcp = await connectMcp(h().baseUrl, provider.saved!.access_token);
  try {
    const wallet = await mcp.client.callTool({ name: 'svc_get_wallet', arguments: { org_id: seed.org_id } });
    t.true(wallet.isError === true);
    t.regex(textOf(wallet as never), /billing:read/);
    const doctor = ok(await mcp.call('svc_doctor'));
    t.true(doctor.missing_scopes.includes('billing:read'));
    t.false(doctor.scopes.includes('billing:read'));
    mcp.calls = 0;
    await agentScenario(t, h, mcp, 'oauth', world());
  } finally {
    await mcp.close();
  }
});
