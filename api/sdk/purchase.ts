// POST /api/sdk/purchase (store-direct only; camelCase accepted): the app reports the store's signed proof and the
// workflow store-purchase/{app_id}/{proof_hash} verifies it with Apple or Google, converts the price to USD at the
// purchase date's rate and hands the events to the conversion pipeline. The answer is the workflow's result,
// awaited at most SDK_PURCHASE_WAIT_MS (then 503: a later report joins or reruns the same workflow, and the
// conversion's idempotency keys record nothing twice). Cheap refusals come first, before any workflow starts:
// 422 mistyped fields; 400 platform not ios/android, not switched to store-direct, credentials missing, proof
// missing (or not a JWS); 422 a one-time Android product without price or currency.
import { findStoreDirectSetup } from '../../db/store-credentials.js';
import { camelAliases } from '../../lib/aliases.js';
import { cleanupCode } from '../../lib/codes.js';
import { AppError, BadRequestError, ConflictError, UnavailableError, ValidationError } from '../../errors/http-errors.js';
import { gateRefusalDetail } from '../../errors/store-direct-refusals.js';
import { androidProofIdentity, claimedTransactionId, proofHash, storeDirectGate } from '../../lib/store-purchase.js';
import type { StorePlatform } from '../../schema/types.js';
import { startStorePurchase, storePurchaseFailureOf } from '../../workflow-clients/store-purchase.js';
import { storePurchaseWorkflowId, type StorePurchaseAnswer, type StorePurchaseInput } from '../../workflows/store-purchase-messages.js';
import type { AppContext } from '../context.js';
import { answerWithin } from '../answer-within.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

/** A local price (IDR, KRW) may be far above any USD figure; the converted USD is bounded again. */
const MAX_LOCAL_PRICE = 1e12;

export const purchaseBody = {
  type: 'object',
  required: ['platform'],
  properties: {
    platform: { type: 'string', maxLength: 32 },
    signed_transaction: { type: ['string', 'null'], maxLength: 65_536 },
    purchase_token: { type: ['string', 'null'], maxLength: 512 },
    product_id: { type: ['string', 'null'], maxLength: 255 },
    price: { type: ['number', 'null'], minimum: 0, maximum: MAX_LOCAL_PRICE },
    currency: { type: ['string', 'null'], pattern: '^[A-Za-z]{3}$' },
    referral_code: { type: ['string', 'null'], maxLength: 64 },
    app_user_id: { type: ['string', 'null'], maxLength: 255 },
  },
} as const;

export const purchaseAliases = camelAliases(Object.keys(purchaseBody.properties));

interface PurchaseReport {
  platform: string;
  signed_transaction?: string | null;
  purchase_token?: string | null;
  product_id?: string | null;
  price?: number | null;
  currency?: string | null;
  referral_code?: string | null;
  app_user_id?: string | null;
}

export async function reportPurchase(ctx: AppContext): Promise<void> {
  const b = inputOf<PurchaseReport>(ctx);
  const { appId } = sdkAppOf(ctx);
  if (b.platform !== 'ios' && b.platform !== 'android') {
    throw new BadRequestError(`platform must be ios or android (store-direct validation); got ${JSON.stringify(b.platform)}.`);
  }
  const platform: StorePlatform = b.platform;
  const gate = storeDirectGate(
    platform,
    await findStoreDirectSetup(ctx.deps.db, appId, platform),
    Boolean(ctx.deps.config.APPLE_ROOT_CERTS),
  );
  if (!gate.ok) throw new BadRequestError(gateRefusalDetail(appId, platform, gate));
  const input = proofOf(appId, platform, b);
  ctx.body = await answer(ctx, input);
}

function proofOf(appId: string, platform: StorePlatform, b: PurchaseReport): StorePurchaseInput {
  const report = {
    appId,
    platform,
    referralCode: b.referral_code ? cleanupCode(b.referral_code) || null : null,
    appUserId: b.app_user_id || null,
    receivedAtMs: Date.now(),
    ...(typeof b.price === 'number' ? { price: b.price } : {}),
    ...(b.currency ? { currency: b.currency.toUpperCase() } : {}),
  };
  if (platform === 'ios') {
    if (!b.signed_transaction)
      throw new BadRequestError(
        'The proof is missing: send signed_transaction (the JWS string of the StoreKit 2 transaction, not decoded JSON).',
      );
    const transactionId = claimedTransactionId(b.signed_transaction);
    if (!transactionId) throw new BadRequestError('Verification failed: signed_transaction is not a JWS of an App Store transaction.');
    return { ...report, proofHash: proofHash('ios', transactionId), signedTransaction: b.signed_transaction };
  }
  if (!b.purchase_token)
    throw new BadRequestError('The proof is missing: send purchase_token (and product_id, price and currency for a one-time product).');
  const productId = b.product_id || undefined;
  if (productId) {
    const missing = [...(typeof b.price === 'number' ? [] : ['price']), ...(b.currency ? [] : ['currency'])];
    if (missing.length > 0) {
      throw new ValidationError(
        missing.map((f) => ({
          loc: ['body', f],
          msg: 'Required for a one-time product (Google does not report its price)',
          type: 'missing',
        })),
      );
    }
  }
  return {
    ...report,
    proofHash: proofHash('android', androidProofIdentity(b.purchase_token, productId)),
    purchaseToken: b.purchase_token,
    ...(productId ? { productId } : {}),
  };
}

async function answer(ctx: AppContext, input: StorePurchaseInput): Promise<StorePurchaseAnswer> {
  return answerWithin({
    begin: () => startStorePurchase(ctx.deps.temporal, ctx.deps.config.TEMPORAL_TASK_QUEUE, input).then((h) => h.result()),
    withinMs: ctx.deps.config.SDK_PURCHASE_WAIT_MS,
    late: { detail: 'The purchase is still being verified; report it again shortly (nothing is recorded twice).' },
    refusal: storePurchaseRefusal,
    unavailable: {
      detail: 'Purchase verification is temporarily unavailable; report the purchase again later.',
      log: 'store purchase workflow failed',
      context: { workflowId: storePurchaseWorkflowId(input.appId, input.proofHash) },
    },
    logger: ctx.deps.logger,
  });
}

function storePurchaseRefusal(err: unknown): AppError | undefined {
  const failure = storePurchaseFailureOf(err);
  if (!failure) return undefined;
  // The one translation of a store failure into HTTP.
  switch (failure.type) {
    case 'StorePurchaseRejected':
      return new BadRequestError(failure.detail);
    case 'StorePurchaseNotPurchased':
      return new ConflictError(failure.detail);
    case 'StorePurchaseInvalid':
      return new ValidationError((failure.fields ?? ['body']).map((f) => ({ loc: ['body', f], msg: failure.detail, type: 'missing' })));
    case 'StoreUnavailable':
    case 'FxRateUnavailable':
      return new UnavailableError(failure.detail, 5);
  }
}
