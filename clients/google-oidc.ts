// The OIDC token Google's Pub/Sub puts on each push (Authorization: Bearer), verified with google-auth-library's
// OAuth2Client.verifyIdToken: signature against Google's certificates, issuer Google's, not expired, audience the
// endpoint's own URL. In Node the library reads the PEM map (`{kid: "-----BEGIN CERTIFICATE-----..."}`) at its
// `endpoints.oauth2FederatedSignonPemCertsUrl` option, which is where GOOGLE_OIDC_CERTS_URL goes, and caches it for
// the answer's Cache-Control max-age. Which service account signed it (`email`, `email_verified`) is the caller's
// rule. No retries: an unreachable certificate endpoint is an outage the pusher retries.
import { OAuth2Client } from 'google-auth-library';

/** The verified claims a push token carries that we read. */
export interface PushIdentity {
  email: string | null;
  emailVerified: boolean;
}

/** Why a push token was refused, or that the certificates could not be read (then the push is retried: 503). */
export class PushTokenError extends Error {
  constructor(
    readonly kind: 'invalid' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'PushTokenError';
  }
}

/** One client per certificate URL: its certificate cache serves every push until the certificates' max-age. */
const clients = new Map<string, OAuth2Client>();

function clientFor(certsUrl: string): OAuth2Client {
  let client = clients.get(certsUrl);
  if (!client) {
    client = new OAuth2Client({ endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl } });
    if (clients.size > 16) clients.clear();
    clients.set(certsUrl, client);
  }
  return client;
}

export async function verifyPushToken(certsUrl: string, idToken: string, audience: string): Promise<PushIdentity> {
  const client = clientFor(certsUrl);
  let ticket;
  try {
    ticket = await client.verifyIdToken({ idToken, audience });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.startsWith('Failed to retrieve verification certificates'))
      throw new PushTokenError('unavailable', 'the certificates of Google push tokens could not be read');
    // The library's messages quote the whole token: only a short reason leaves here.
    throw new PushTokenError('invalid', reasonOf(message));
  }
  const payload = ticket.getPayload();
  return {
    email: typeof payload?.email === 'string' ? payload.email.toLowerCase() : null,
    emailVerified: payload?.email_verified === true,
  };
}

function reasonOf(message: string): string {
  if (message.includes('audience') || message.includes('recipient'))
    return 'the token is for another audience (the push endpoint of the subscription must be this URL)';
  if (message.includes('No pem found') || message.includes('signature')) return 'the token is not signed by Google';
  if (message.includes('issuer')) return 'the token is not issued by Google';
  if (
    message.includes('too late') ||
    message.includes('too early') ||
    message.includes('Expiration') ||
    message.includes('No issue time') ||
    message.includes('No expiration')
  )
    return 'the token is expired or not yet valid';
  return 'the token is not a valid Google OIDC token';
}
