// The issue's proof from outside: the official SDK Client with an OAuthClientProvider goes through discovery,
// dynamic registration, our real sign-in and consent pages, the token exchange, a tool call, an /api/agent call
// with the same token, refresh (rotating), revocation of the grant, and a call after revocation that fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { purgeExpiredOauthItems } from '../../db/oauth-store-writes.js';
import { hashToken } from '../../lib/credentials.js';
import { SCOPES } from '../../lib/scopes.js';
import { Browser } from '../helpers/browser.js';
import { request } from '../helpers/http.js';
import { ok } from '../helpers/mcp.js';
import { authorizeMcpClient, consentInBrowser, TestOAuthProvider } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

// Client ID metadata documents are served by this test on loopback, which the test setting allows.
const { h, seed } = useSeededHarness(test, { worker: false, env: { OAUTH_CIMD_ALLOW_LOOPBACK: 'true' } });

async function connect(provider: TestOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'oauth-proof', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h().baseUrl}/mcp`), { authProvider: provider }));
  return client;
}

function authorize(provider: TestOAuthProvider, untick: string[] = [], browser = new Browser()): Promise<{ consentPage: string }> {
  return authorizeMcpClient(h().baseUrl, provider, { email: seed.user_email, password: seed.user_password, untick }, browser);
}

test('discovery documents: RFC 8414 (root alias and issuer path), OpenID, RFC 9728 root and path-suffixed', async (t) => {
  const base = h().baseUrl;
  for (const path of [
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/oauth',
    '/oauth/.well-known/openid-configuration',
    '/.well-known/openid-configuration/oauth',
  ]) {
    const res = await request(base, 'GET', path);
    t.is(res.status, 200, path);
    t.is(res.body.issuer, `${base}/oauth`, path);
    t.deepEqual(res.body.code_challenge_methods_supported, ['S256'], path);
    t.is(res.body.registration_endpoint, `${base}/oauth/reg`, path);
    t.truthy(res.body.revocation_endpoint, path);
  }
  for (const [path, resource] of [
    ['', `${base}/`],
    ['/mcp', `${base}/mcp`],
    ['/api/agent', `${base}/api/agent`],
  ] as const) {
    const res = await request(base, 'GET', `/.well-known/oauth-protected-resource${path}`);
    t.is(res.status, 200);
    t.is(res.body.resource, resource);
    t.deepEqual(res.body.authorization_servers, [`${base}/oauth`]);
    t.deepEqual(res.body.scopes_supported, [...SCOPES]);
  }
  // The OpenAPI document advertises exactly these endpoints.
  const metadata = (await request(base, 'GET', '/.well-known/oauth-authorization-server')).body;
  const flow = (await request(base, 'GET', '/api/agent/openapi.json')).body.components.securitySchemes.oauth2.flows.authorizationCode;
  t.is(flow.authorizationUrl, metadata.authorization_endpoint);
  t.is(flow.tokenUrl, metadata.token_endpoint);
  t.deepEqual(Object.keys(flow.scopes).sort(), [...SCOPES].sort());
  t.true(metadata.scopes_supported.includes('apps:read'));
  t.is(metadata.revocation_endpoint, `${base}/oauth/token/revocation`);
  const challenge = await request(base, 'POST', '/mcp', { body: {} });
  t.is(challenge.status, 401);
  t.regex(challenge.headers.get('www-authenticate')!, new RegExp(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`));
  t.regex(challenge.headers.get('www-authenticate')!, /scope="apps:read /);
  const agent = await request(base, 'GET', '/api/agent/doctor');
  t.regex(agent.headers.get('www-authenticate')!, new RegExp(`resource_metadata="${base}/.well-known/oauth-protected-resource/api/agent"`));
});

test('dynamic registration refuses bad metadata with RFC 7591 errors', async (t) => {
  const bad = await request(h().baseUrl, 'POST', '/oauth/reg', { body: { redirect_uris: ['not a url'] } });
  t.is(bad.status, 400);
  t.regex(bad.body.error, /^invalid_(redirect_uri|client_metadata)$/);
  t.truthy(bad.body.error_description);
});

test(
  'the SDK client signs in, consents, calls a tool and the ' + 'agent API with one token, refreshes, and is cut off by revocation',
  async (t) => {
    const provider = new TestOAuthProvider();
    const browser = new Browser();
    const { consentPage } = await authorize(provider, [], browser);
    for (const scope of SCOPES) t.regex(consentPage, new RegExp(`value="${scope}" checked`), `${scope} is ticked by default`);
    t.regex(consentPage, /name="org" value="[^"]+" checked/);
    const first = provider.saved!;
    t.truthy(first.access_token);
    t.truthy(first.refresh_token, 'a refresh token without offline_access');
    t.true(first.expires_in! <= 3600);
    t.falsy(await h().db('oauth_store').where('id', first.access_token).first(), 'tokens are stored as digests');
    t.truthy(
      await h()
        .db('oauth_store')
        .where({ model: 'AccessToken', id: hashToken(first.access_token) })
        .first(),
    );

    const client = await connect(provider);
    const doctor = ok((await client.callTool({ name: 'svc_doctor', arguments: {} })) as never);
    t.is(doctor.auth_mode, 'oauth');
    t.deepEqual([...doctor.scopes].sort(), [...SCOPES].sort());
    t.deepEqual(
      doctor.organizations.map((o: { id: string }) => o.id),
      [seed.org_id],
    );
    t.truthy(doctor.hard_denied.length);
    await client.close();
    const rest = await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: first.access_token });
    t.is(rest.status, 200, rest.text);
    t.is(rest.body.auth_mode, 'oauth');
    t.like(rest.body.principal, { type: 'oauth', client_id: (provider.info as { client_id: string }).client_id });
    t.truthy(rest.body.principal.user_id);
    t.deepEqual(rest.body.hard_denied, doctor.hard_denied);
    t.is((await request(h().baseUrl, 'GET', `/api/agent/apps/${seed.app_id}`, { token: first.access_token })).status, 200);

    // Refresh rotates: a new access and refresh token.
    provider.saved = { ...first, access_token: 'expired' };
    await auth(provider, { serverUrl: `${h().baseUrl}/mcp` });
    const second = provider.saved;
    t.not(second.access_token, 'expired');
    t.not(second.refresh_token, first.refresh_token);
    t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: second.access_token })).status, 200);

    // The user revokes the grant (session-only, with CSRF): refresh stops and the access token dies at once.
    const session = await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: browser.cookieHeader() } });
    const grants = await request(h().baseUrl, 'GET', '/api/grants', { headers: { cookie: browser.cookieHeader() } });
    t.is(grants.status, 200);
    const clientId = (provider.info as { client_id: string }).client_id;
    const grantId = (grants.body.grants as { id: string; client_id: string }[]).find((g) => g.client_id === clientId)!.id;
    t.is(
      (await request(h().baseUrl, 'POST', `/api/grants/${grantId}/revoke`, { token: second.access_token })).status,
      401,
      'an OAuth token cannot revoke',
    );
    const revoked = await request(h().baseUrl, 'POST', `/api/grants/${grantId}/revoke`, {
      headers: { cookie: browser.cookieHeader(), 'x-csrf-token': session.body.csrf_token },
    });
    t.is(revoked.status, 200, revoked.text);
    const after = await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: second.access_token });
    t.is(after.status, 401);
    t.regex(after.headers.get('www-authenticate')!, /resource_metadata=/);
    const mcpAfter = await request(h().baseUrl, 'POST', '/mcp', {
      token: second.access_token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    t.is(mcpAfter.status, 401);
    const refreshAfter = await fetch(`${h().baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: second.refresh_token!,
        client_id: (provider.info as { client_id: string }).client_id,
      }),
    });
    t.is(refreshAfter.status, 400);
  },
);

test('an unticked scope is missing from the token: 403 insufficient_scope naming it, with the challenge', async (t) => {
  const provider = new TestOAuthProvider();
  await authorize(provider, ['billing:read']);
  const token = provider.saved!.access_token;
  const res = await request(h().baseUrl, 'GET', `/api/agent/wallet?org_id=${seed.org_id}`, { token });
  t.is(res.status, 403, res.text);
  t.regex(res.body.detail, /billing:read/);
  t.regex(res.headers.get('www-authenticate')!, /error="insufficient_scope"/);
  t.regex(res.headers.get('www-authenticate')!, /scope="billing:read"/);
  const doctor = await request(h().baseUrl, 'GET', '/api/agent/doctor', { token });
  t.false(doctor.body.scopes.includes('billing:read'));
  t.true(doctor.body.missing_scopes.includes('billing:read'));
});

test('deny at consent sends access_denied to the client', async (t) => {
  const provider = new TestOAuthProvider();
  const transport = new StreamableHTTPClientTransport(new URL(`${h().baseUrl}/mcp`), { authProvider: provider });
  await new Client({ name: 'deny', version: '1' }).connect(transport).catch(() => undefined);
  const { redirect } = await consentInBrowser(provider.authorizationUrl!, {
    email: seed.user_email,
    password: seed.user_password,
    deny: true,
  });
  t.is(redirect.searchParams.get('error'), 'access_denied');
});

test('replaying a rotated refresh token is refused and ends the grant (reuse detection)', async (t) => {
  const provider = new TestOAuthProvider();
  await authorize(provider);
  const first = provider.saved!;
  provider.saved = { ...first, access_token: 'expired' };
  await auth(provider, { serverUrl: `${h().baseUrl}/mcp` });
  const second = provider.saved;
  t.not(second.refresh_token, first.refresh_token);
  t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: second.access_token })).status, 200);
  const replay = await fetch(`${h().baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: (provider.info as { client_id: string }).client_id,
    }),
  });
  t.is(replay.status, 400);
  t.is(((await replay.json()) as { error: string }).error, 'invalid_grant');
  t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: second.access_token })).status, 401);
});

test(
  'a client ID metadata document served by the client replaces ' + 'registration; a document on a special-use address is refused',
  async (t) => {
    let documentUrl = '';
    const served: string[] = [];
    const server = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/oauth/missing.json') {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          client_id: documentUrl,
          client_name: 'CIMD test agent',
          redirect_uris: [new TestOAuthProvider().redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      documentUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/client.json`;
      const metadata = (await request(h().baseUrl, 'GET', '/.well-known/oauth-authorization-server')).body;
      t.true(metadata.client_id_metadata_document_supported);
      const provider = new TestOAuthProvider({ clientMetadataUrl: documentUrl });
      const { consentPage } = await authorize(provider);
      t.regex(consentPage, /CIMD test agent/);
      t.regex(consentPage, /Identified by its metadata document on <strong>127\.0\.0\.1<\/strong>/, 'the domain, not "unverified"');
      t.notRegex(consentPage, /unverified/);
      t.is((provider.info as { client_id: string }).client_id, documentUrl, 'no registration: the URL is the client_id');
      t.deepEqual(served, ['/oauth/client.json'], 'fetched once (then cached)');
      t.is(await h().db('oauth_clients').where('client_id', documentUrl).first(), undefined);
      const rest = await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: provider.saved!.access_token });
      t.is(rest.status, 200);
      t.is(rest.body.auth_mode, 'oauth');

      // 127.0.0.2 is special-use and not the loopback the test setting names: refused before anything is shown,
      // saying it is our address policy; a document that is not there is a fetch failure, said as such.
      const port = (server.address() as AddressInfo).port;
      const authorizeWith = (clientId: string) =>
        fetch(
          `${h().baseUrl}/oauth/auth?${new URLSearchParams({
            client_id: clientId,
            response_type: 'code',
            redirect_uri: new TestOAuthProvider().redirectUrl,
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'S256',
            scope: 'apps:read',
          }).toString()}`,
          { redirect: 'manual' },
        );
      // Something listens there, so only the guard stands between the fetch and a document.
      const special = createServer((_req, res) => res.end('{}'));
      await new Promise<void>((resolve) => special.listen(0, '127.0.0.2', resolve));
      const refused = await authorizeWith(`https://127.0.0.2:${(special.address() as AddressInfo).port}/oauth/client.json`).finally(() =>
        special.close(),
      );
      t.is(refused.status, 400);
      const refusedPage = await refused.text();
      t.regex(refusedPage, /invalid_client/);
      t.regex(refusedPage, /data-refusal="address_policy">127\.0\.0\.2 is a private or special-use network address/);
      const missing = await authorizeWith(`https://127.0.0.1:${port}/oauth/missing.json`);
      t.is(missing.status, 400);
      t.regex(
        await missing.text(),
        /data-refusal="fetch_failure">Fetching the client's metadata document from 127\.0\.0\.1 failed \(unexpected response status 404\)/,
      );
    } finally {
      server.close();
    }
  },
);

test(
  'no silent re-authorization: after signing out of the ' + 'dashboard, the same client goes through sign-in and consent again',
  async (t) => {
    const provider = new TestOAuthProvider();
    const browser = new Browser();
    await authorize(provider, [], browser);
    const session = await request(h().baseUrl, 'GET', '/dashboard/session', { headers: { cookie: browser.cookieHeader() } });
    t.is((await browser.fetch(`${h().baseUrl}/dashboard/logout`, { form: { csrf: session.body.csrf_token } })).status, 303);
    provider.saved = undefined;
    provider.authorizationUrl = undefined;
    const transport = new StreamableHTTPClientTransport(new URL(`${h().baseUrl}/mcp`), { authProvider: provider });
    await new Client({ name: 'again', version: '1' }).connect(transport).catch(() => undefined);
    const hop = await browser.follow(provider.authorizationUrl!.href, (url) => !url.startsWith(provider.redirectUrl));
    t.is(hop.status, 200);
    t.true(hop.url.startsWith(`${h().baseUrl}/dashboard/login`), hop.url);
  },
);

test('the audience is checked on every call; RFC 7009 revocation of the refresh token ends the grant', async (t) => {
  const provider = new TestOAuthProvider();
  await authorize(provider);
  const { access_token: access, refresh_token: refresh } = provider.saved!;
  const row = h()
    .db('oauth_store')
    .where({ model: 'AccessToken', id: hashToken(access) });
  const { payload } = await row.clone().first();
  t.is(payload.aud, `${h().baseUrl}/`, 'one audience for both surfaces');
  await row.clone().update({ payload: { ...payload, aud: 'https://elsewhere.example/' } });
  t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: access })).status, 401, 'a token for another resource');
  await row.clone().update({ payload });
  t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: access })).status, 200);

  const revoked = await fetch(`${h().baseUrl}/oauth/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: refresh!,
      token_type_hint: 'refresh_token',
      client_id: (provider.info as { client_id: string }).client_id,
    }),
  });
  t.is(revoked.status, 200);
  t.is((await request(h().baseUrl, 'GET', '/api/agent/doctor', { token: access })).status, 401);
});

test('long-expired authorization server rows are purged; live ones stay', async (t) => {
  const db = h().db;
  await db('oauth_store').insert([
    { model: 'Interaction', id: 'old-one', payload: {}, expires_at: new Date(Date.now() - 3 * 86400_000) },
    { model: 'Interaction', id: 'live-one', payload: {}, expires_at: new Date(Date.now() + 3600_000) },
  ]);
  t.true((await purgeExpiredOauthItems(db)) >= 1);
  t.falsy(await db('oauth_store').where({ model: 'Interaction', id: 'old-one' }).first());
  t.truthy(await db('oauth_store').where({ model: 'Interaction', id: 'live-one' }).first());
});
