// POST /api/sdk/init: the start-up check every app launch makes. Marks the SDK as installed for the setup page.
import { UnauthorizedError } from '../../errors/http-errors.js';
import { isStoreDirect } from '../../lib/validation-providers.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { initSnapshot } from './app-snapshot-cache.js';
import { sdkAppOf } from './sdk-app.js';

export const initBody = {
  type: 'object',
  required: ['app_version', 'sdk_version', 'platform'],
  properties: {
    app_version: { type: 'string', minLength: 1, maxLength: 64 },
    sdk_version: { type: 'string', minLength: 1, maxLength: 64 },
    platform: { enum: ['ios', 'android', 'web'] },
    sdk_name: { type: 'string', maxLength: 64 },
    runtime: { enum: ['capacitor', 'cordova', 'twa', 'pwa', 'browser'] },
  },
} as const;

interface InitInput {
  app_version: string;
  sdk_version: string;
  platform: 'ios' | 'android' | 'web';
  sdk_name?: string;
  runtime?: string;
}

export async function init(ctx: AppContext): Promise<void> {
  const input = inputOf<InitInput>(ctx);
  const app = await initSnapshot(ctx.deps.db, ctx.caches, sdkAppOf(ctx).appId, {
    platform: input.platform,
    sdkName: input.sdk_name ?? null,
    sdkVersion: input.sdk_version,
    appVersion: input.app_version,
    runtime: input.runtime ?? null,
  });
  if (!app) throw new UnauthorizedError('The SDK key belongs to no app.');
  ctx.body = {
    app_id: app.id,
    app_name: app.name,
    attribution_window_hours: app.attribution_window_hours,
    campaigns: app.campaigns,
    store_direct: isStoreDirect(input.platform, app),
    initialized: true,
  };
}
