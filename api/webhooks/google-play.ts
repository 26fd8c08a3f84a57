// POST /api/webhooks/google-play/{app_id} (CONTRACT.md "Store notifications"): Google Play real-time developer
// notifications as Pub/Sub push messages. Order: the app (404), the push's OIDC token (401 missing or not Google's
// for this URL; 403 another service account than the app's `pubsub_service_account`, or none uploaded), the body
// (400 not JSON, 422 not a push of a Play notification, or one for another package), then the verified push is kept
// in raw_intake once per messageId and its workflow started: 200 at once (Pub/Sub's acknowledgement deadline is
// short), the work is the workflow's (workflows/google-notification.ts). A redelivered messageId finds its row and
// starts nothing new. 503 when PostgreSQL, Temporal or Google's certificates cannot be reached: Pub/Sub delivers
// the push again, and the kept row makes that redelivery the same item.
import { verifyPushToken, PushTokenError } from '../../clients/google-oidc.js';
import { takeInStoreNotification } from '../../actions/store-notification-intake.js';
import { NOTIFICATION_SOURCES } from '../../db/store-notifications.js';
import { findPlayPushSetup } from '../../db/store-credentials.js';
import { parseBearer } from '../../lib/credentials.js';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from '../../errors/http-errors.js';
import { decodeNotification, pubsubPushBody, type PubsubPush } from '../../lib/play-notification.js';
import type { JsonObject } from '../../schema/types.js';
import { findUnstorable } from '../../lib/storable.js';
import { assertValid } from '../../lib/validation.js';
import { startPlayNotification } from '../../workflow-clients/store-notification.js';
import type { AppContext } from '../context.js';
import { NOT_JSON } from '../middleware/json-body.js';
import type { RateLimitRule } from '../middleware/rate-limit.js';
import { APP_ID } from './subprovider.js';

/** Kept in raw_intake under this source, the messageId as external id. */
const PLAY_RTDN_SOURCE = NOTIFICATION_SOURCES.android;

/**
 * Per app: Play sends a notification per purchase event, so this is far above a real app's rate; past it 429 and
 * Pub/Sub backs off and delivers again (nothing is lost).
 */
export const PLAY_RTDN_RATE: RateLimitRule = { name: 'play_rtdn', limit: 300, windowMs: 10_000, key: (ctx) => String(ctx.params.appId) };

const HOW_TO_AUTHENTICATE =
  'Turn on authentication in the Pub/Sub push subscription: a service account (the one uploaded as ' +
  'pubsub_service_account with the Android credential) and the audience left empty or set to this endpoint URL.';

export async function googlePlayNotification(ctx: AppContext): Promise<void> {
  const appId = ctx.params.appId as string;
  const setup = APP_ID.test(appId) ? await findPlayPushSetup(ctx.deps.db, appId) : undefined;
  if (!setup)
    throw new NotFoundError('No app with this id. The push endpoint is /api/webhooks/google-play/{app_id} with the id of an existing app.');
  await authenticatePush(ctx, appId, setup.pushAccount);
  if (ctx.state.bodyInvalid) throw new BadRequestError(NOT_JSON);
  const push = assertValid<PubsubPush>(pubsubPushBody, ctx.state.body);
  // What PostgreSQL could never keep (NUL characters, deep nesting) is refused here, not retried as an outage.
  const unstorable = findUnstorable(push);
  if (unstorable) throw new ValidationError([unstorable]);
  const decoded = decodeNotification(push.message.data);
  if (!decoded.ok) throw new ValidationError([{ loc: ['body', 'message', 'data'], msg: decoded.detail, type: 'value_error' }]);
  if (decoded.notification.packageName !== setup.packageName) {
    throw new ValidationError([
      {
        loc: ['body', 'message', 'data'],
        msg:
          `The notification is for package ${decoded.notification.packageName}, this app's Android package ` +
          `is ${setup.packageName ?? 'not uploaded'}: point the Play Console's topic of that app at its own endpoint.`,
        type: 'value_error',
      },
    ]);
  }
  const messageId = push.message.messageId;
  try {
    // Also validation-status's "wired / last received" for Android (db/store-notifications.ts owns it for both stores).
    const { row, inserted } = await takeInStoreNotification(ctx.deps, {
      appId,
      source: PLAY_RTDN_SOURCE,
      externalId: messageId,
      payload: push as unknown as JsonObject,
      test: Boolean(decoded.notification.testNotification),
    });
    if (!row.normalised_at) {
      await startPlayNotification(ctx.deps.temporal, ctx.deps.config.TEMPORAL_TASK_QUEUE, {
        appId,
        messageId,
        reportWaitMs: ctx.deps.config.PLAY_RTDN_REPORT_WAIT_MS,
      });
    }
    ctx.body = { received: true, message_id: messageId, duplicate: !inserted };
  } catch (err) {
    ctx.deps.logger.warn({ err, appId, messageId }, 'play notification not taken in; Pub/Sub will deliver it again');
    throw new UnavailableError('The notification could not be taken in now; Pub/Sub delivers it again.', 10);
  }
}

/** The push's OIDC token: Google's, for this endpoint's URL, of the app's push service account (email verified). */
async function authenticatePush(ctx: AppContext, appId: string, pushAccount: string | null): Promise<void> {
  const token = parseBearer(ctx.get('authorization'));
  if (!token) throw new UnauthorizedError(`The push carries no OIDC token. ${HOW_TO_AUTHENTICATE}`);
  if (!pushAccount) {
    throw new ForbiddenError(
      'This app takes no Google Play notifications yet: upload the Android credential ' +
        'again with "pubsub_service_account" (the push subscription\'s service account email).',
    );
  }
  const audience = `${ctx.deps.config.BASE_URL}/api/webhooks/google-play/${appId}`;
  let identity;
  try {
    identity = await verifyPushToken(ctx.deps.config.GOOGLE_OIDC_CERTS_URL, token, audience);
  } catch (err) {
    if (err instanceof PushTokenError && err.kind === 'invalid')
      throw new UnauthorizedError(`The push's OIDC token was refused: ${err.message}. ${HOW_TO_AUTHENTICATE}`);
    ctx.deps.logger.warn({ appId, error: err instanceof Error ? err.message : String(err) }, 'Google push certificates unreachable');
    throw new UnavailableError("Google's token certificates could not be read; Pub/Sub delivers the push again.", 10);
  }
  if (!identity.emailVerified || identity.email !== pushAccount) {
    throw new ForbiddenError(
      `The push is signed for another service account than this app's pubsub_service_account. ${HOW_TO_AUTHENTICATE}`,
    );
  }
}
