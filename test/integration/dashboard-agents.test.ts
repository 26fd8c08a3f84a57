// The connect-agent page's OAuth side: a grant made through the real consent flow is listed on the page, and its
// revoke button ends it at once: the refresh token is refused and the access token gets 401 on its next call.
import test from 'ava';
import { Browser, inputValue } from '../helpers/browser.js';
import { request } from '../helpers/http.js';
import { authorizeMcpClient, TestOAuthProvider } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { OAUTH_CIMD_ALLOW_LOOPBACK: 'true' } });

test('an OAuth grant is listed on the connect-agent page; revoking it there stops refresh and the access token at once', async (t) => {
  const provider = new TestOAuthProvider();
  const browser = new Browser();
  await authorizeMcpClient(h().baseUrl, provider, { email: seed.user_email, password: seed.user_password }, browser);
  const tokens = provider.saved!;
  t.is((await request(h().baseUrl, 'GET', '/api/agent/whoami', { token: tokens.access_token })).status, 200);
  const grant = await h()
    .db('oauth_grants')
    .where('user_id', (await h().db('users').where('email', seed.user_email).first('id')).id)
    .first('id');

  const page = await browser.fetch(`${h().baseUrl}/dashboard/agents`);
  t.is(page.status, 200);
  t.true(page.text.includes(`data-grant="${grant.id}"`));
  const forged = await browser.fetch(`${h().baseUrl}/dashboard/agents/grants/${grant.id}/revoke`, { form: { csrf: 'forged' } });
  t.is(forged.status, 403);
  const asked = await browser.fetch(`${h().baseUrl}/dashboard/agents/grants/${grant.id}/revoke`, {
    form: { csrf: inputValue(page.text, 'csrf')! },
  });
  t.is(asked.status, 200);
  t.regex(asked.text, /<h1>Revoke this agent(?:'|&#39;)s access\?<\/h1>/, 'without the confirmation the post only asks');
  t.is((await request(h().baseUrl, 'GET', '/api/agent/whoami', { token: tokens.access_token })).status, 200, 'nothing revoked yet');
  const revoked = await browser.follow(`${h().baseUrl}/dashboard/agents/grants/${grant.id}/revoke`, undefined, {
    form: { csrf: inputValue(page.text, 'csrf')!, confirmed: 'yes' },
  });
  t.is(revoked.status, 200);
  t.regex(revoked.text, /Access revoked/);

  t.is((await request(h().baseUrl, 'GET', '/api/agent/whoami', { token: tokens.access_token })).status, 401);
  const refresh = await fetch(`${h().baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: (provider.info as { client_id: string }).client_id,
    }),
  });
  t.is(refresh.status, 400);
});
