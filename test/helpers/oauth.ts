// An MCP client's side of OAuth for tests: an OAuthClientProvider (official SDK interface) that keeps everything in
// memory and, instead of opening a browser, records the authorization URL; and `consentInBrowser`, which walks that
// URL through our real sign-in and consent pages with a cookie jar and returns the code from the redirect.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Browser, formAction, inputValue } from './browser.js';

export const REDIRECT_URL = 'http://127.0.0.1:7/callback';

export class TestOAuthProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  clientMetadataUrl?: string;

  constructor(opts: { clientMetadataUrl?: string } = {}) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'svc test agent',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface ConsentChoice {
  email: string;
  password: string;
  untick?: string[];
  deny?: boolean;
}

/** Drives the authorization URL through sign-in and consent; returns the final redirect to the client (at `redirectUri`). */
export async function consentInBrowser(
  authorizationUrl: URL,
  who: ConsentChoice,
  browser = new Browser(),
  redirectUri = REDIRECT_URL,
): Promise<{ redirect: URL; consentPage: string }> {
  const notClient = (url: string) => !url.startsWith(redirectUri);
  let hop = await browser.follow(authorizationUrl.href, notClient);
  if (hop.url.includes('/dashboard/login')) {
    const csrf = inputValue(hop.text, 'csrf')!;
    const returnTo = inputValue(hop.text, 'return_to')!;
    hop = await browser.follow(formAction(hop.text, hop.url), notClient, {
      form: { csrf, return_to: returnTo, email: who.email, password: who.password },
    });
  }
  if (hop.status !== 200 || !hop.text.includes('name="scope"'))
    throw new Error(`expected the consent page, got ${hop.status} at ${hop.url}: ${hop.text.slice(0, 300)}`);
  const consentPage = hop.text;
  const scopes = [...consentPage.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!).filter((s) => !who.untick?.includes(s));
  const org = /name="org" value="([^"]+)"[^>]*checked/.exec(consentPage)?.[1] ?? '';
  const done = await browser.follow(formAction(consentPage, hop.url), notClient, {
    form: { csrf: inputValue(consentPage, 'csrf')!, org, scope: scopes, decision: who.deny ? 'deny' : 'approve' },
  });
  if (!done.location?.startsWith(redirectUri))
    throw new Error(`expected a redirect to the client, got ${done.status} at ${done.url}: ${done.text.slice(0, 300)}`);
  return { redirect: new URL(done.location), consentPage };
}

/**
 * The whole dance as an MCP client does it: the SDK meets the 401, discovers, registers (or presents its client ID
 * metadata document URL) and builds the authorization request; the human part happens in the browser; the SDK
 * exchanges the code. Tokens end up in `provider.saved`.
 */
export async function authorizeMcpClient(
  baseUrl: string,
  provider: TestOAuthProvider,
  who: ConsentChoice,
  browser = new Browser(),
): Promise<{ consentPage: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport).then(
    () => {
      throw new Error('connected without authorization');
    },
    (err: unknown) => {
      if (!(err instanceof UnauthorizedError)) throw err;
    },
  );
  const { redirect, consentPage } = await consentInBrowser(provider.authorizationUrl!, who, browser);
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${redirect.href}`);
  await transport.finishAuth(code);
  return { consentPage };
}
