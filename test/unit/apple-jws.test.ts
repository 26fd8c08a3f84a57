// The iOS verifier (clients/apple-app-store.ts over @apple/app-store-server-library) against Apple's own signed test
// vectors (test/fixtures/apple, from Apple's library, signed by Apple's test chain) and against a three-certificate
// chain made here with Apple's marker extensions: what verifies, what is refused, and why.
import test from 'ava';
import { Environment, SignedDataVerifier, VerificationException, VerificationStatus } from '@apple/app-store-server-library';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppleTransactionVerifier, loadAppleRoots } from '../../clients/apple-app-store.js';
import { createAppleChain, signTransaction, transactionPayload, type AppleChain } from '../helpers/apple-signing.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/apple/${name}`, import.meta.url));
const vector = (name: string) => readFileSync(fixture(name), 'utf8').trim();
const BUNDLE = 'com.example.app';
let chain: AppleChain;
let other: AppleChain;

test.before(async () => {
  [chain, other] = await Promise.all([createAppleChain('Test'), createAppleChain('Other')]);
});

test("Apple's vectors: a transaction signed by Apple's test chain verifies with the configured root (DER file)", async (t) => {
  const verifier = new AppleTransactionVerifier(loadAppleRoots(fixture('testCA.der')));
  const r = await verifier.verify(vector('transactionInfo'), 'com.example', undefined);
  t.true(r.ok);
  if (r.ok) t.like(r.transaction, { environment: 'Sandbox', bundleId: 'com.example', signedDate: 1672956154000 });
});

test("Apple's vectors: the roots we load make the library accept and refuse exactly as Apple's own tests say", async (t) => {
  const library = new SignedDataVerifier(loadAppleRoots(fixture('testCA.der')), false, Environment.SANDBOX, 'com.example');
  t.like(await library.verifyAndDecodeRenewalInfo(vector('renewalInfo')), { environment: 'Sandbox' });
  const status = async (jws: string) =>
    library.verifyAndDecodeNotification(jws).then(
      () => VerificationStatus.OK,
      (e: VerificationException) => e.status,
    );
  t.is(await status(vector('wrongBundleId')), VerificationStatus.INVALID_APP_IDENTIFIER);
  t.not(await status(vector('missingX5CHeaderClaim')), VerificationStatus.OK);
  // Our transaction verifier refuses them too (they are notifications, not transactions).
  const ours = new AppleTransactionVerifier(loadAppleRoots(fixture('testCA.der')));
  for (const name of ['wrongBundleId', 'missingX5CHeaderClaim'])
    t.false((await ours.verify(vector(name), 'com.example', undefined)).ok, name);
});

test('a transaction from a chain we made verifies; its environment, bundle id, chain and signature are checked', async (t) => {
  const verifier = new AppleTransactionVerifier(loadAppleRoots(chain.rootPath));
  const production = signTransaction(
    chain,
    transactionPayload({ bundleId: BUNDLE, environment: 'Production', transactionId: '2000000000000001' }),
  );
  const ok = await verifier.verify(production, BUNDLE, 1234567890);
  t.true(ok.ok);
  if (ok.ok) t.like(ok.transaction, { transactionId: '2000000000000001', environment: 'Production', price: 9990 });
  t.true(ok.ok && ok.signatureChecked);
  // Without the app's Apple id a Production transaction still verifies (the library checks transactions by bundle id).
  t.true((await verifier.verify(production, BUNDLE, undefined)).ok);

  const refused = async (jws: string, bundle = BUNDLE) => {
    const r = await verifier.verify(jws, bundle, undefined);
    return r.ok ? 'verified' : r.reason;
  };
  t.regex(await refused(production, 'com.other.app'), /another app/);
  t.regex(
    await refused(signTransaction(other, transactionPayload({ bundleId: BUNDLE }))),
    /does not verify against the trusted Apple roots/,
  );
  const [h, p, s] = production.split('.');
  const tampered = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
  tampered.price = 99990;
  t.regex(await refused(`${h}.${Buffer.from(JSON.stringify(tampered)).toString('base64url')}.${s}`), /signature|does not verify/);
  t.regex(await refused('not-a-jws'), /not a JWS/);
  t.regex(
    await refused(signTransaction(chain, transactionPayload({ bundleId: BUNDLE, environment: 'Nowhere' as never }))),
    /known App Store environment/,
  );
});

test('Xcode and LocalTesting transactions are decoded without a signature check (and say so)', async (t) => {
  const verifier = new AppleTransactionVerifier(loadAppleRoots(chain.rootPath));
  for (const environment of ['Xcode', 'LocalTesting'] as const) {
    const r = await verifier.verify(signTransaction(other, transactionPayload({ bundleId: BUNDLE, environment })), BUNDLE, undefined);
    t.true(r.ok, environment);
    t.false(r.ok && r.signatureChecked, environment);
  }
});
