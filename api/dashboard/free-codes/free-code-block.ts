// POST /api/apps/{app_id}/free-codes/{free_code_id}/block (dashboard REST; the agent API has no block call): blocks
// or unblocks a free-access code. Blocking ends redemption and, per the spec's free-access grant states, every
// holder's access at the next access check; the app's code cache is dropped so the SDK sees it at once.
import { findApp } from '../../../db/apps.js';
import { blockFreeCode } from '../../../actions/free-codes.js';
import { NotFoundError } from '../../../errors/http-errors.js';
import { freeCodeView } from '../../agent/free-codes.js';
import { visibleTo } from '../../agent/principal.js';
import type { AppContext } from '../../context.js';
import { inputOf } from '../../middleware/validate.js';

export const blockFreeCodeBody = {
  type: 'object',
  additionalProperties: false,
  properties: { blocked: { type: 'boolean', default: true } },
} as const;

export async function blockFreeCodeHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const row = await blockFreeCode(ctx.deps, {
    appId: app.id,
    id: ctx.params.free_code_id as string,
    blocked: inputOf<{ blocked: boolean }>(ctx).blocked,
  });
  if (!row) throw new NotFoundError('Free-access code not found');
  ctx.caches.codes.dropApp(app.id);
  ctx.body = freeCodeView(row);
}
