// POST /api/sdk/identify: attach a user id to an install. Limited to 2 requests per second per IP (plain 429 page);
// the same key and user within 60 seconds is answered from memory.
import { getAttributionSettings } from '../../db/apps.js';
import { identifyUser } from '../../actions/sdk-intake/identify.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { TtlCache } from '../../runtime/ttl-cache.js';
import type { AppContext } from '../context.js';
import type { RateLimitRule } from '../middleware/rate-limit.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

export const IDENTIFY_RATE: RateLimitRule = { name: 'identify', limit: 2, windowMs: 1000 };
const DEDUP_MS = 60_000;

export const identifyBody = {
  type: 'object',
  required: ['app_user_id'],
  properties: {
    app_user_id: { type: 'string', maxLength: 255 },
    properties: { type: 'object' },
    device_id: { type: 'string', minLength: 1, maxLength: 128 },
    platform: { enum: ['ios', 'android', 'web'] },
  },
} as const;

interface IdentifyBody {
  app_user_id: string;
  properties?: Record<string, unknown>;
  device_id?: string;
}
interface IdentifyAnswer {
  identified: true;
  app_user_id: string;
  attribution_backfilled: boolean;
}

/** Keyed by app and user: one process answers repeats from memory (each API process keeps its own). */
const recent = new TtlCache<string, IdentifyAnswer>(DEDUP_MS, 50_000);

export async function identify(ctx: AppContext): Promise<void> {
  const b = inputOf<IdentifyBody>(ctx);
  const appUserId = b.app_user_id.trim();
  if (!appUserId) throw new BadRequestError('app_user_id must not be empty.');
  const { appId } = sdkAppOf(ctx);
  const key = `${appId}\n${appUserId}`;
  const remembered = recent.get(key);
  if (remembered) {
    ctx.body = { ...remembered, deduplicated: true };
    return;
  }
  const settings = await getAttributionSettings(ctx.deps.db, appId);
  const outcome = await identifyUser(ctx.deps, {
    appId,
    appUserId,
    deviceId: b.device_id ?? null,
    ip: ctx.state.clientIp || null,
    properties: b.properties ?? {},
    windowHours: settings.attribution_window_hours,
  });
  const answer: IdentifyAnswer = { identified: true, app_user_id: appUserId, attribution_backfilled: outcome.backfilled };
  recent.set(key, answer);
  ctx.body = answer;
}
