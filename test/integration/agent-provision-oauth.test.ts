// svc_provision and svc_create_org on an OAuth grant (issue 24): the consent page says the grant includes organizations
// the client creates, and so it is: a provision naming an organization the grant does not reach creates it (owned by
// the consenting human), adds it to the grant, and a repeat (also a concurrent one) finds it instead of creating
// another. The new organization's wallet is empty, so the defaulted activation leaves the campaign in draft and names
// the top-up tool. The token is obtained through the real sign-in and consent pages.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { request } from '../helpers/http.js';
import { connectMcp, ok, type McpSession } from '../helpers/mcp.js';
import { authorizeMcpClient, TestOAuthProvider } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

let mcp: McpSession;
let token: string;
let consentPage: string;
test.before(async () => {
  await h.ready();
  const provider = new TestOAuthProvider();
  ({ consentPage } = await authorizeMcpClient(h().baseUrl, provider, { email: seed.user_email, password: seed.user_password }));
  token = provider.saved!.access_token;
  mcp = await connectMcp(h().baseUrl, token);
});
test.after.always(async () => {
  await mcp?.close();
});

const input = (orgName: string, appName: string) => ({
  org_name: orgName,
  app: { name: appName },
  campaign: { name: 'Launch', commission_percentage: 15 },
});
const grantOrgs = async () =>
  (
    await h()
      .db('oauth_grants')
      .whereNull('revoked_at')
      .where('user_id', h().db('users').select('id').where('email', seed.user_email))
      .select('org_ids')
  ).flatMap((g: { org_ids: string[] }) => g.org_ids);
const orgIdsOfWhoami = async () => (ok(await mcp.call('svc_whoami')).organizations as { id: string }[]).map((o) => o.id);

test('the consent page says the grant includes organizations the client creates', (t) => {
  t.regex(consentPage, /including organizations it creates/);
});

test('provision with a new org_name creates the organization, owned by the human and added to the grant; a repeat finds it', async (t) => {
  const orgName = `Brand ${randomUUID().slice(0, 8)}`;
  const appName = `Brand App ${randomUUID().slice(0, 6)}`;
  const first = ok(await mcp.call('svc_provision', input(orgName, appName)));
  t.like(first, {
    created: { org: true, app: true, campaign: true },
    campaign_status: 'draft',
    next_tool: 'svc_get_wallet_topup_link',
    call: 'POST /api/agent/wallet/topup-link',
  });
  t.not(first.org_id, seed.org_id);
  t.regex(first.webhook_secret, /^rc_webhook_/);
  t.regex(first.notes.join(' '), /Created the organization/);
  const org = await h().db('organizations').where('id', first.org_id).first();
  t.is(org.name, orgName);
  const owner = await h().db('memberships').where('org_id', first.org_id).first();
  const user = await h().db('users').where('email', seed.user_email).first();
  t.like(owner, { user_id: user.id, role: 'owner' });
  t.true((await grantOrgs()).includes(first.org_id));
  t.true((await orgIdsOfWhoami()).includes(first.org_id), 'the same token reaches it at once');

  // The same call again (any case of the name): the same organization, app and campaign, nothing created.
  const again = ok(await mcp.call('svc_provision', input(orgName.toUpperCase(), appName)));
  t.like(again, {
    org_id: first.org_id,
    app_id: first.app_id,
    campaign_id: first.campaign_id,
    created: { org: false, app: false, campaign: false },
  });
  t.is((await h().db('organizations').where('name', orgName).select('id')).length, 1);
  // Over REST with the same token, too.
  const rest = await request(h().baseUrl, 'POST', '/api/agent/provision', { token, body: input(orgName, appName) });
  t.is(rest.status, 200, rest.text);
  t.is(rest.body.org_id, first.org_id);
});

test('two provisions naming the same new organization at once create it once', async (t) => {
  const orgName = `Race ${randomUUID().slice(0, 8)}`;
  const body = input(orgName, 'Race App');
  const [x, y] = await Promise.all([
    request(h().baseUrl, 'POST', '/api/agent/provision', { token, body }),
    request(h().baseUrl, 'POST', '/api/agent/provision', { token, body }),
  ]);
  t.deepEqual([x.status, y.status].sort(), [200, 201], `${x.text} ${y.text}`);
  t.is(x.body.org_id, y.body.org_id);
  t.is((await h().db('organizations').where('name', orgName).select('id')).length, 1);
});

test('svc_create_org on an OAuth grant: the new organization is reachable by this credential at once', async (t) => {
  const name = `Created ${randomUUID().slice(0, 8)}`;
  const created = ok(await mcp.call('svc_create_org', { name }));
  t.like(created, { name, reachable_by_this_credential: true });
  t.true((await grantOrgs()).includes(created.org_id));
  t.true((await orgIdsOfWhoami()).includes(created.org_id));
  const provisioned = ok(await mcp.call('svc_provision', input(name, 'In Created')));
  t.like(provisioned, { org_id: created.org_id, created: { org: false, app: true } });
});
