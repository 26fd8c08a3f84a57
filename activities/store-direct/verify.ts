// Verification of a store-direct purchase proof: the platform must be switched to store-direct and have its
// credential; iOS: the signed transaction verified by the App Store library against the configured roots (bundle id
// and environment checked); Android: Google's answer for the purchase token (subscriptionsv2.get, or products.get
// when a product id is given) with the stored service account; a subscription no longer paid up also reads
// Google's voided purchases for its token (voided.ts), so the report carries a refund. The answer is normalised
// into the pipeline's events (lib/store-purchase.ts), prices still in the store's currency. Rejections end the workflow with their type
// (non-retryable); store outages are retried a few times, then answer 503.
import { ApplicationFailure } from '@temporalio/activity';
import { GooglePlayError, googlePlayClientFor } from '../../clients/google-play.js';
import { findOneTimeConversionKey } from '../../db/conversions.js';
import { hasPurchaseEvent } from '../../db/purchase-events.js';
import { findStoreDirectSetup } from '../../db/store-credentials.js';
import { recordStoreProof } from '../../db/store-proofs.js';
import type { PurchaseEvent } from '../../lib/purchase-event.js';
import { credentialsMissingDetail, gateRefusalDetail } from '../../errors/store-direct-refusals.js';
import {
  appleTransactionEvents,
  googleProductEvents,
  googleSubscriptionEvents,
  storeDirectGate,
  type Normalised,
} from '../../lib/store-purchase.js';
import { PAID_UP_STATES } from '../../lib/play-voided.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import {
  storePurchaseWorkflowId,
  type StorePurchaseFailureDetails,
  type StorePurchaseFailureType,
  type StorePurchaseInput,
} from '../../workflows/store-purchase-messages.js';
import { readAndroidCredential, UNREADABLE_SERVICE_ACCOUNT, type StoreDirectContext } from './context.js';
import { voidedRefundsOfSubscription } from './voided.js';

export interface VerifiedPurchase {
  validated: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  events: PurchaseEvent[];
  /** Per event: the event log held it before this report (the answer's `duplicate`; see record.ts). */
  recordedBefore: boolean[];
}

const GOOGLE_TIMEOUT_MS = 10_000;

function failure(type: StorePurchaseFailureType, detail: string, fields?: string[]): ApplicationFailure {
  const details: StorePurchaseFailureDetails = fields ? { detail, fields } : { detail };
  return type === 'StoreUnavailable'
    ? ApplicationFailure.retryable(detail, type, details)
    : ApplicationFailure.nonRetryable(detail, type, details);
}

export function verifyActivities(ctx: StoreDirectContext) {
  async function rejected(input: StorePurchaseInput, err: ApplicationFailure): Promise<never> {
    await recordStoreProof(ctx.db, {
      appId: input.appId,
      proofHash: input.proofHash,
      platform: input.platform,
      workflowId: storePurchaseWorkflowId(input.appId, input.proofHash),
      status: 'rejected',
      purchaseEventId: null,
      result: { type: err.type, ...(err.details?.[0] as object) },
    });
    throw err;
  }

  async function verifyIos(input: StorePurchaseInput, bundleId: string, appAppleId: string | null): Promise<Normalised> {
    const verifier = ctx.appleVerifier();
    if (!verifier) throw failure('StorePurchaseRejected', credentialsMissingDetail('ios'));
    if (!input.signedTransaction)
      throw failure('StorePurchaseRejected', 'The proof is missing: send signed_transaction (the JWS string of the StoreKit transaction).');
    const checked = await verifier.verify(
      input.signedTransaction,
      bundleId,
      appAppleId && /^\d+$/.test(appAppleId) ? Number(appAppleId) : undefined,
    );
    if (!checked.ok) {
      if (checked.retryable)
        throw failure('StoreUnavailable', `The signed transaction could not be verified now: ${checked.reason}; report it again later.`);
      throw failure('StorePurchaseRejected', `Verification failed: ${checked.reason}.`);
    }
    const tx = checked.transaction;
    if (!tx.transactionId) throw failure('StorePurchaseRejected', 'Verification failed: the signed transaction has no transaction id.');
    const events = appleTransactionEvents(tx, { appUserId: input.appUserId, referralCode: input.referralCode });
    const unpriced = events.find((e) => e.type !== 'REFUND' && e.priceInPurchasedCurrency === null);
    if (unpriced) {
      if (input.price === undefined || !input.currency)
        return {
          ok: false,
          type: 'StorePurchaseInvalid',
          detail: 'The signed transaction carries no price: send price and currency.',
          fields: ['price', 'currency'],
        };
      Object.assign(unpriced, { priceInPurchasedCurrency: input.price, currency: input.currency.toUpperCase() });
    }
    return { ok: true, events };
  }

  async function verifyAndroid(input: StorePurchaseInput, packageName: string): Promise<Normalised> {
    // A database fault while reading it is an outage (thrown as it is, retried); only what the row holds decides.
    const secret = await readAndroidCredential(ctx, input.appId);
    if (secret === null) throw failure('StorePurchaseRejected', UNREADABLE_SERVICE_ACCOUNT);
    if (!secret) throw failure('StorePurchaseRejected', credentialsMissingDetail('android'));
    if (!input.purchaseToken)
      throw failure('StorePurchaseRejected', 'The proof is missing: send purchase_token (and product_id for a one-time product).');
    const report = { appUserId: input.appUserId, referralCode: input.referralCode };
    if (input.productId && (input.price === undefined || !input.currency)) {
      return {
        ok: false,
        type: 'StorePurchaseInvalid',
        detail: 'A one-time product needs the price and currency the app charged.',
        fields: ['price', 'currency'].filter((f) => (f === 'price' ? input.price === undefined : !input.currency)),
      };
    }
    try {
      const google = googlePlayClientFor(ctx.config, secret, GOOGLE_TIMEOUT_MS);
      if (input.productId) {
        const product = await google.getProduct(packageName, input.productId, input.purchaseToken);
        const recorded =
          product.purchaseState === 1 &&
          Boolean(await findOneTimeConversionKey(ctx.db, input.appId, product.orderId || input.purchaseToken));
        return googleProductEvents(
          product,
          input.purchaseToken,
          { ...report, productId: input.productId, price: input.price!, currency: input.currency! },
          recorded,
        );
      }
      const subscription = await google.getSubscription(packageName, input.purchaseToken);
      const normalised = googleSubscriptionEvents(subscription, input.purchaseToken, input.receivedAtMs, {
        ...report,
        price: input.price,
        currency: input.currency,
      });
      // No refund state in SubscriptionPurchaseV2: a report of a subscription no longer paid up reads the voided list.
      if (!normalised.ok || PAID_UP_STATES.has(subscription.subscriptionState ?? '')) return normalised;
      const refunds = await voidedRefundsOfSubscription(ctx, google, packageName, input.appId, input.purchaseToken, normalised.events);
      return { ok: true, events: [...normalised.events, ...refunds] };
    } catch (err) {
      if (!(err instanceof GooglePlayError)) throw err;
      if (err.kind === 'unavailable') throw failure('StoreUnavailable', `${err.message}; report the purchase again later.`);
      if (err.kind === 'not_found') throw failure('StorePurchaseRejected', `Verification failed: ${err.message}.`);
      throw failure(
        'StorePurchaseRejected',
        `Verification failed: ${err.message}; then run POST /api/agent/apps/${input.appId}/validate-store-credentials.`,
      );
    }
  }

  return {
    async verifyStorePurchase(input: StorePurchaseInput): Promise<VerifiedPurchase> {
      try {
        const setup = await findStoreDirectSetup(ctx.db, input.appId, input.platform);
        const gate = storeDirectGate(input.platform, setup, ctx.appleVerifier() !== undefined);
        if (!gate.ok) throw failure('StorePurchaseRejected', gateRefusalDetail(input.appId, input.platform, gate));
        const normalised =
          input.platform === 'ios' ? await verifyIos(input, gate.storeId, setup!.appAppleId) : await verifyAndroid(input, gate.storeId);
        if (!normalised.ok) throw failure(normalised.type, normalised.detail, normalised.fields);
        const environment = normalised.events[0]!.environment === 'PRODUCTION' ? 'PRODUCTION' : 'SANDBOX';
        const recordedBefore = await Promise.all(normalised.events.map((e) => hasPurchaseEvent(ctx.db, input.appId, e)));
        return { validated: STORE_VERIFIER[input.platform], environment, events: normalised.events, recordedBefore };
      } catch (err) {
        if (err instanceof ApplicationFailure && err.nonRetryable) return rejected(input, err);
        throw err;
      }
    },
  };
}
