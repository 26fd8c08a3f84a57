// The proof from outside, through tools only: an agent holding nothing but an agent key talks to /mcp with
// the official SDK client and takes a new app from nothing to live (test/helpers/agent-scenario.ts; the OAuth proof
// runs the same scenario on an OAuth token).
import test from 'ava';
import { agentScenario } from '../helpers/agent-scenario.js';
import { connectMcp } from '../helpers/mcp.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { useStoreWorld } from '../helpers/store-direct.js';

// The seed provides the organization, its wallet (1000 USD) and the agent key; its own app is not used.
const { h, seed } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' } });
// Apple's API, Google and the ECB as stubs, for the scenario's store-direct purchase.
const world = useStoreWorld(test, h);

test('an agent key alone takes a new app from nothing to live through MCP tools', async (t) => {
  const mcp = await connectMcp(h().baseUrl, seed.agent_key);
  try {
    await agentScenario(t, h, mcp, 'agent_key', world());
  } finally {
    await mcp.close();
  }
});
