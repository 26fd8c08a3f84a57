// OAuth clients cannot pose as others (issue 24): dynamic registration accepts what real MCP clients send (the
// bodies of Cursor, Claude and VS Code, test/fixtures/oauth-registrations.ts) and stores each as the right client
// type, refuses plain http off loopback and script/local schemes with RFC 7591's invalid_redirect_uri, and the
// consent page says where the browser goes and that a self-registered client is unverified. `iss` (RFC 9207) is in
// the authorization response.
import test from 'ava';
import { CLAUDE, CURSOR, CURSOR_SINGLE, VSCODE } from '../fixtures/oauth-registrations.js';
import { Browser } from '../helpers/browser.js';
import { request } from '../helpers/http.js';
import { consentInBrowser } from '../helpers/oauth.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

// RFC 7636 appendix B's verifier and challenge.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

async function register(body: object) {
  return request(h().baseUrl, 'POST', '/oauth/reg', { body });
}

async function storedType(clientId: string): Promise<unknown> {
  const row = await h().db('oauth_clients').where('client_id', clientId).first();
  return row?.metadata.application_type;
}

function authorizeUrl(clientId: string, redirectUri: string): URL {
  return new URL(
    `${h().baseUrl}/oauth/auth?${new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      scope: 'apps:read',
      state: 'st-1',
    }).toString()}`,
  );
}

test('the registration bodies Cursor, Claude and VS Code send are accepted and stored as the right client type', async (t) => {
  const expected: [string, object, 'native' | 'web'][] = [
    ['Cursor (three URIs)', CURSOR, 'native'],
    ['Cursor (private-use only)', CURSOR_SINGLE, 'native'],
    ['Claude', CLAUDE, 'web'],
    ['VS Code', VSCODE, 'native'],
  ];
  for (const [name, body, type] of expected) {
    const res = await register(body);
    t.is(res.status, 201, `${name}: ${res.text}`);
    t.is(res.body.application_type, type, name);
    t.deepEqual(res.body.redirect_uris, (body as { redirect_uris: string[] }).redirect_uris, name);
    t.is(await storedType(res.body.client_id), type, `${name} as stored`);
  }
  // Claude's `scope: "claudeai"` is not ours: dropped (no scope limit) rather than refusing the client.
  const claude = await register(CLAUDE);
  t.is(claude.body.scope, undefined);
  t.is(claude.body.token_endpoint_auth_method, 'none', 'a public client');
});

test('loopback-only registrations are native clients; https ones stay web', async (t) => {
  for (const uri of ['http://127.0.0.1:7/callback', 'http://[::1]:8080/cb', 'http://localhost/cb']) {
    const res = await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    t.is(res.status, 201, `${uri}: ${res.text}`);
    t.is(res.body.application_type, 'native', uri);
  }
  const web = await register({ redirect_uris: ['https://agent.example/cb', 'http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
  t.is(web.status, 201, web.text);
  t.is(web.body.application_type, 'web');
});

test('http off loopback and javascript:, data:, file:, blob:, vbscript: are invalid_redirect_uri; nothing is stored', async (t) => {
  const refused = [
    'http://agent.example/cb',
    'http://10.0.0.5/cb',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'blob:https://agent.example/1',
    'vbscript:msgbox(1)',
  ];
  for (const uri of refused) {
    const res = await register({
      client_name: 'refused probe',
      redirect_uris: ['https://agent.example/ok', uri],
      token_endpoint_auth_method: 'none',
    });
    t.is(res.status, 400, uri);
    t.is(res.body.error, 'invalid_redirect_uri', uri);
    t.truthy(res.body.error_description, uri);
  }
  // Claiming to be native does not open http to other hosts either.
  const native = await register({
    client_name: 'refused probe',
    redirect_uris: ['http://agent.example/cb'],
    application_type: 'native',
    token_endpoint_auth_method: 'none',
  });
  t.is(native.body.error, 'invalid_redirect_uri');
  t.is((await h().db('oauth_clients').whereRaw("metadata->>'client_name' = ?", ['refused probe'])).length, 0);
});

test('consent names the redirect scheme and host and marks a registered client unverified; the answer carries iss', async (t) => {
  const cursor = await register(CURSOR);
  const callback = CURSOR.redirect_uris[0]!;
  const browser = new Browser();
  const { redirect, consentPage } = await consentInBrowser(
    authorizeUrl(cursor.body.client_id, callback),
    { email: seed.user_email, password: seed.user_password },
    browser,
    callback,
  );
  t.regex(consentPage, /Allow Cursor to use your account/);
  t.regex(consentPage, /id="client-unverified">unverified</);
  t.regex(consentPage, /<code>cursor:\/\/anysphere\.cursor-mcp<\/code>/);
  t.regex(consentPage, /opens cursor: links/);
  t.is(redirect.protocol, 'cursor:');
  t.is(redirect.searchParams.get('iss'), `${h().baseUrl}/oauth`, 'RFC 9207 iss in the authorization response');
  t.is(redirect.searchParams.get('state'), 'st-1');
  const token = await fetch(`${h().baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      redirect_uri: callback,
      code_verifier: VERIFIER,
      client_id: cursor.body.client_id,
    }),
  });
  t.is(token.status, 200, await token.clone().text());
  t.truthy(((await token.json()) as { access_token?: string }).access_token);

  // A web client's https redirect: the site's host.
  const claude = await register(CLAUDE);
  const page = await browser.follow(
    authorizeUrl(claude.body.client_id, CLAUDE.redirect_uris[0]!).href,
    (u) => !u.startsWith('https://claude.ai/'),
  );
  t.is(page.status, 200);
  t.regex(page.text, /Allow claudeai to use your account/);
  t.regex(page.text, /<code>https:\/\/claude\.ai<\/code>: the website claude\.ai/);
  t.regex(page.text, /unverified/);
});

test('a native client may come back on any loopback port (RFC 8252 §7.3); a web client only on the registered one', async (t) => {
  const vscode = await register(VSCODE);
  const web = await register({ redirect_uris: ['https://agent.example/cb', 'http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
  const native = await fetch(authorizeUrl(vscode.body.client_id, 'http://127.0.0.1:54321/').href, { redirect: 'manual' });
  t.is(native.status, 303, await native.text());
  t.regex(native.headers.get('location')!, /\/dashboard\/oauth\//);
  const other = await fetch(authorizeUrl(web.body.client_id, 'http://127.0.0.1:54321/cb').href, { redirect: 'manual' });
  t.is(other.status, 400);
  t.regex(await other.text(), /redirect_uri/);
});
