// GET /api/agent/apps/check-slug/{slug}: whether a slug is free for an app's referral links.
import { isSlugTaken } from '../../db/apps.js';
import { SLUG_RULES, slugProblem } from '../../lib/slugs.js';
import type { AppContext } from '../context.js';

const MESSAGES = {
  invalid_format: SLUG_RULES,
  reserved: "This word is reserved for the service's own paths.",
  taken: 'Another app already uses this slug (slugs are unique across all apps).',
} as const;

export async function checkSlugHandler(ctx: AppContext): Promise<void> {
  const slug = ctx.params.slug as string;
  const reason = slugProblem(slug) ?? ((await isSlugTaken(ctx.deps.db, slug)) ? 'taken' : undefined);
  ctx.body = reason ? { slug, available: false, reason, message: MESSAGES[reason] } : { slug, available: true };
}
