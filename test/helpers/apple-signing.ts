// Apple-signed transactions for tests: a three-certificate chain made here (root, intermediate with Apple's marker
// extension 1.2.840.113635.100.6.2.1, leaf with 1.2.840.113635.100.6.11.1, all ECDSA P-256), the root written to a
// file for APPLE_ROOT_CERTS, and JWS transactions signed by the leaf with the chain in the x5c header, exactly as
// StoreKit 2 delivers them. @peculiar/x509 only builds the certificates; signing is node:crypto.
import 'reflect-metadata'; // @peculiar/x509 resolves its parsers through tsyringe, which needs it
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomUUID, sign, webcrypto, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const MARKER_INTERMEDIATE = '1.2.840.113635.100.6.2.1';
const MARKER_LEAF = '1.2.840.113635.100.6.11.1';
const ASN1_NULL = new Uint8Array([0x05, 0x00]);

export interface AppleChain {
  /** DER of root, intermediate, leaf. */
  root: Buffer;
  intermediate: Buffer;
  leaf: Buffer;
  leafKey: KeyObject;
  /** A file holding the root (PEM), for APPLE_ROOT_CERTS. */
  rootPath: string;
}

// @peculiar/x509 is typed with the DOM's CryptoKey (preact brings the DOM lib), whose usages list is older than
// node:crypto's; the keys are the same objects.
type KeyPair = CryptoKeyPair;

async function keys(): Promise<KeyPair> {
  return webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']) as Promise<KeyPair>;
}

export async function createAppleChain(name = 'Test'): Promise<AppleChain> {
  const notBefore = new Date(Date.now() - 10 * 365 * 86_400_000);
  const notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const [rootKeys, interKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const ca = (marker?: string) => [
    new x509.BasicConstraintsExtension(true, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ...(marker ? [new x509.Extension(marker, false, ASN1_NULL)] : []),
  ];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name} Apple Root CA - G3, O=Apple Inc., C=US`,
    keys: rootKeys,
    notBefore,
    notAfter,
    signingAlgorithm: SHA256,
    extensions: ca(),
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    subject: `CN=${name} Apple Worldwide Developer Relations Certification Authority, O=Apple Inc., C=US`,
    issuer: root.subject,
    publicKey: interKeys.publicKey,
    signingKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: SHA256,
    extensions: ca(MARKER_INTERMEDIATE),
  });
  const leaf = await x509.X509CertificateGenerator.create({
    subject: `CN=${name} Prod ECC Mac App Store and iTunes Store Receipt Signing, O=Apple Inc., C=US`,
    issuer: intermediate.subject,
    publicKey: leafKeys.publicKey,
    signingKey: interKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: SHA256,
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true), new x509.Extension(MARKER_LEAF, false, ASN1_NULL)],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  const rootPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'svc-apple-root-')), 'root.pem');
  writeFileSync(rootPath, root.toString('pem'));
  return {
    root: Buffer.from(root.rawData),
    intermediate: Buffer.from(intermediate.rawData),
    leaf: Buffer.from(leaf.rawData),
    leafKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    rootPath,
  };
}

/** A StoreKit 2 JWSTransaction signed by the chain's leaf (ES256, x5c = leaf, intermediate, root). */
export function signTransaction(chain: AppleChain, payload: Record<string, unknown>): string {
  const header = { alg: 'ES256', x5c: [chain.leaf, chain.intermediate, chain.root].map((c) => c.toString('base64')) };
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: chain.leafKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

export interface TransactionFields {
  transactionId?: string;
  originalTransactionId?: string;
  bundleId: string;
  productId?: string;
  type?: 'Auto-Renewable Subscription' | 'Non-Consumable' | 'Consumable' | 'Non-Renewing Subscription';
  environment?: 'Production' | 'Sandbox' | 'Xcode' | 'LocalTesting';
  purchaseDate?: number;
  price?: number;
  currency?: string;
  revocationDate?: number;
  offerDiscountType?: string;
  /** Redeemed with an offer code (offerType 3): the offer's reference name. */
  offerIdentifier?: string;
  signedDate?: number;
  inAppOwnershipType?: 'PURCHASED' | 'FAMILY_SHARED';
  appAccountToken?: string;
}

/** A realistic transaction payload (the fields StoreKit 2 sends), with defaults for a monthly subscription. */
export function transactionPayload(f: TransactionFields): Record<string, unknown> {
  const now = Date.now();
  const transactionId = f.transactionId ?? String(2000000000000000 + Math.floor(Math.random() * 1e12));
  const purchaseDate = f.purchaseDate ?? now - 60_000;
  return {
    transactionId,
    originalTransactionId: f.originalTransactionId ?? transactionId,
    webOrderLineItemId: String(Math.floor(Math.random() * 1e15)),
    bundleId: f.bundleId,
    productId: f.productId ?? 'pro_monthly',
    subscriptionGroupIdentifier: '21345678',
    purchaseDate,
    originalPurchaseDate: purchaseDate,
    expiresDate: purchaseDate + 30 * 86_400_000,
    quantity: 1,
    type: f.type ?? 'Auto-Renewable Subscription',
    inAppOwnershipType: 'PURCHASED',
    signedDate: f.signedDate ?? now,
    environment: f.environment ?? 'Production',
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: f.price ?? 9990,
    currency: f.currency ?? 'USD',
    appTransactionId: randomUUID(),
    ...(f.revocationDate !== undefined ? { revocationDate: f.revocationDate, revocationReason: 0 } : {}),
    ...(f.offerDiscountType ? { offerType: 1, offerDiscountType: f.offerDiscountType } : {}),
    ...(f.offerIdentifier ? { offerType: 3, offerIdentifier: f.offerIdentifier, offerDiscountType: 'PAY_UP_FRONT' } : {}),
    ...(f.inAppOwnershipType ? { inAppOwnershipType: f.inAppOwnershipType } : {}),
    ...(f.appAccountToken ? { appAccountToken: f.appAccountToken } : {}),
  };
}

export interface NotificationFields {
  notificationType: string;
  subtype?: string;
  notificationUUID?: string;
  signedDate?: number;
  bundleId: string;
  appAppleId?: number;
  environment?: 'Production' | 'Sandbox';
  signedTransactionInfo?: string;
  signedRenewalInfo?: string;
}

/** An App Store Server Notification V2 payload (ResponseBodyV2DecodedPayload), to be signed with signTransaction. */
export function notificationPayload(f: NotificationFields): Record<string, unknown> {
  return {
    notificationType: f.notificationType,
    ...(f.subtype ? { subtype: f.subtype } : {}),
    notificationUUID: f.notificationUUID ?? randomUUID(),
    version: '2.0',
    signedDate: f.signedDate ?? Date.now(),
    data: {
      appAppleId: f.appAppleId,
      bundleId: f.bundleId,
      bundleVersion: '1.0',
      environment: f.environment ?? 'Production',
      status: 1,
      ...(f.signedTransactionInfo ? { signedTransactionInfo: f.signedTransactionInfo } : {}),
      ...(f.signedRenewalInfo ? { signedRenewalInfo: f.signedRenewalInfo } : {}),
    },
  };
}

/** Renewal info (JWSRenewalInfoDecodedPayload) of a subscription. */
export function renewalInfoPayload(f: {
  originalTransactionId: string;
  productId?: string;
  autoRenewProductId?: string;
  autoRenewStatus?: 0 | 1;
  environment?: string;
  appAccountToken?: string;
}): Record<string, unknown> {
  return {
    originalTransactionId: f.originalTransactionId,
    productId: f.productId ?? 'pro_monthly',
    autoRenewProductId: f.autoRenewProductId ?? f.productId ?? 'pro_monthly',
    autoRenewStatus: f.autoRenewStatus ?? 1,
    signedDate: Date.now(),
    environment: f.environment ?? 'Production',
    recentSubscriptionStartDate: Date.now() - 86_400_000,
    ...(f.appAccountToken ? { appAccountToken: f.appAccountToken } : {}),
  };
}
