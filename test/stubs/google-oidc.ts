// A local stand-in for the issuer of Google's Pub/Sub push tokens: a throw-away RSA key whose self-signed X.509
// certificate is served at `/oauth2/v1/certs` as Google serves its own, a JSON map from key id to PEM certificate
// (what google-auth-library's verifyIdToken fetches in Node, at the URL its `oauth2FederatedSignonPemCertsUrl`
// endpoint option names: GOOGLE_OIDC_CERTS_URL), with a Cache-Control max-age. `sign` makes the token Pub/Sub puts
// in a push's Authorization header: RS256, issuer https://accounts.google.com, audience, the push service account's
// email and email_verified. `stranger` signs with another key that the certificates do not list.
import 'reflect-metadata'; // @peculiar/x509 resolves its parsers through tsyringe, which needs it
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomBytes, sign as rsaSign, webcrypto, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

export interface PushClaims {
  aud: string;
  email: string;
  email_verified?: boolean;
  iss?: string;
  expiresInS?: number;
}

export interface OidcStub {
  /** GOOGLE_OIDC_CERTS_URL. */
  certsUrl: string;
  certFetches: number;
  sign(claims: PushClaims): string;
  /** A token of the same shape signed by a key Google's certificates do not hold. */
  stranger(claims: PushClaims): string;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  key: KeyObject;
}

async function signingKey(withCertificate: boolean): Promise<SigningKey & { pem?: string }> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const kid = randomBytes(20).toString('hex');
  const key = createPrivateKey({
    key: Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    format: 'der',
    type: 'pkcs8',
  });
  if (!withCertificate) return { kid, key };
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=accounts.google.com',
    keys,
    signingAlgorithm: RSA,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 14 * 86_400_000),
  });
  return { kid, key, pem: cert.toString('pem') };
}

function jwt(k: SigningKey, c: PushClaims): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = part({ alg: 'RS256', kid: k.kid, typ: 'JWT' });
  const body = part({
    aud: c.aud,
    azp: '113774264463038321964',
    email: c.email,
    email_verified: c.email_verified ?? true,
    exp: now + (c.expiresInS ?? 3600),
    iat: now,
    iss: c.iss ?? 'https://accounts.google.com',
    sub: '113774264463038321964',
  });
  return `${head}.${body}.${rsaSign('sha256', Buffer.from(`${head}.${body}`), k.key).toString('base64url')}`;
}

export async function startOidcStub(): Promise<OidcStub> {
  const [google, other] = await Promise.all([signingKey(true), signingKey(false)]);
  const stub: OidcStub = {
    certsUrl: '',
    certFetches: 0,
    sign: (c) => jwt(google, c),
    stranger: (c) => jwt(other, c),
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/oauth2/v1/certs') {
      stub.certFetches += 1;
      res.setHeader('content-type', 'application/json; charset=UTF-8');
      res.setHeader('cache-control', 'public, max-age=300, must-revalidate, no-transform');
      res.end(JSON.stringify({ [google.kid]: google.pem }));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.certsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v1/certs`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
