// GET /api/sdk/campaigns: active public campaigns only.
import { listActivePublicCampaigns } from '../../db/campaigns.js';
import type { AppContext } from '../context.js';
import { sdkAppOf } from './sdk-app.js';

export async function listCampaigns(ctx: AppContext): Promise<void> {
  ctx.body = await listActivePublicCampaigns(ctx.deps.db, sdkAppOf(ctx).appId);
}
