// Dashboard REST additions for the campaign and analytics pages, each a thin adapter over the agent API's own
// handler or computation (api/agent/analytics.ts, localize.ts): the campaign's top affiliates take the campaign
// from the path, and the localize form's flat fields (`locale`, `name`, `description`) become the agent body
// `{"locales": {locale: {name, description}}}`, so one schema validates both.
import { topAffiliatesOf, topAffiliatesQuery, type TopAffiliatesQuery } from '../../agent/analytics.js';
import type { AppContext } from '../../context.js';
import { inputOf } from '../../middleware/validate.js';

const { from, to, limit } = topAffiliatesQuery.properties;
export const campaignTopAffiliatesQuery = { type: 'object', properties: { from, to, limit } } as const;

/** GET /api/campaigns/{campaign_id}/top-affiliates: GET /api/agent/analytics/top-affiliates?campaign_id=… */
export async function campaignTopAffiliatesHandler(ctx: AppContext): Promise<void> {
  ctx.body = await topAffiliatesOf(ctx, { ...inputOf<TopAffiliatesQuery>(ctx), campaign_id: ctx.params.campaign_id as string });
}

/** The localize page form as the agent's body; blank copy fields are left out (a locale needs one field at least). */
export function localizeFormBody(form: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.fromEntries(
    ['name', 'description'].filter((k) => typeof form[k] === 'string' && form[k] !== '').map((k) => [k, form[k]]),
  );
  const locale = typeof form.locale === 'string' ? form.locale.trim() : '';
  return { locales: { [locale]: copy } };
}
