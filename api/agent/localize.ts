// POST /campaigns/{campaign_id}/localize (campaigns:write) and POST /apps/{app_id}/localize (apps:write): the agent
// supplies translated copy per locale (`{"locales": {"de": {"name": "...", "description": "..."}}}`; apps also take
// `tagline`). Each supplied locale replaces that locale's copy whole and records the SHA-256 of the source text it
// translates (campaign: name + description; app: name + description + tagline) and `updated_at`; other locales are
// kept. A locale is `fresh` while the source text still hashes the same and `stale` after it changed, however it
// changed (PATCH, dashboard, SQL). The response lists every stored locale with its status and `stale_locales`;
// `{"locales": {}}` only reports. `campaignI18nView` / `appI18nView` give the same view for the GET endpoints.
import type { Knex } from 'knex';
import { findApp, findCampaign } from '../../db/agent-resources.js';
import { freshnessOf, LOCALE_PATTERN, sourceHash, summarize, type Freshness, type LocaleMeta } from '../../lib/i18n-freshness.js';
import { NotFoundError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-writes.js';
import { visibleTo } from './principal.js';

const CAMPAIGN_SOURCE = ['name', 'description'] as const;
const APP_SOURCE = ['name', 'description', 'tagline'] as const;

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;

const localizeBody = (fields: Record<string, object>) => ({
  type: 'object', additionalProperties: false, required: ['locales'],
  properties: {
    locales: {
      type: 'object', maxProperties: 100,
      description: `Locale (${LOCALE_PATTERN}, e.g. "de", "pt-BR") to its translated copy`,
      propertyNames: { pattern: LOCALE_PATTERN },
      additionalProperties: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields },
    },
  },
}) as const;

export const localizeCampaignBody = localizeBody({ name: text(200), description: text(5000) });
export const localizeAppBody = localizeBody({ name: text(200), description: text(5000), tagline: text(300) });

type Copy = Record<string, string>;
interface LocaleView { status: Freshness; source_hash: string | null; updated_at: string | null; [field: string]: unknown }

function view(sourceHashNow: string, entries: Record<string, { copy: Copy; meta: Partial<LocaleMeta> | undefined }>) {
  const locales: Record<string, LocaleView> = {};
  for (const [locale, { copy, meta }] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
    locales[locale] = { ...copy, source_hash: meta?.source_hash ?? null, updated_at: meta?.updated_at ?? null, status: freshnessOf(meta, sourceHashNow) };
  }
  return { source_hash: sourceHashNow, locales, ...summarize(locales) };
}

type CampaignI18n = Record<string, Copy & Partial<LocaleMeta>>;

/** The campaign's localized copy with each locale's freshness. */
export function campaignI18nView(campaign: { name: unknown; description: unknown; i18n: unknown }) {
  const hash = sourceHash(CAMPAIGN_SOURCE, campaign);
  const stored = (campaign.i18n ?? {}) as CampaignI18n;
  return view(hash, Object.fromEntries(Object.entries(stored).map(([locale, { source_hash, updated_at, ...copy }]) => [locale, { copy, meta: { source_hash, updated_at } }])));
}

interface AppI18nRow { name: unknown; description: unknown; tagline: unknown; name_i18n: unknown; description_i18n: unknown; tagline_i18n: unknown; i18n_meta: unknown }

/** The app's localized copy (name_i18n, description_i18n, tagline_i18n) with each locale's freshness (i18n_meta). */
export function appI18nView(app: AppI18nRow) {
  const hash = sourceHash(APP_SOURCE, app);
  const maps = { name: app.name_i18n, description: app.description_i18n, tagline: app.tagline_i18n } as Record<string, Record<string, string> | null>;
  const meta = (app.i18n_meta ?? {}) as Record<string, LocaleMeta>;
  const locales = new Set([...Object.keys(meta), ...Object.values(maps).flatMap((m) => Object.keys(m ?? {}))]);
  const entries: Record<string, { copy: Copy; meta: Partial<LocaleMeta> | undefined }> = {};
  for (const locale of locales) {
    const copy: Copy = {};
    for (const [field, m] of Object.entries(maps)) if (m?.[locale] !== undefined) copy[field] = m[locale];
    entries[locale] = { copy, meta: meta[locale] };
  }
  return view(hash, entries);
}

const lockRow = (trx: Knex.Transaction, table: string, id: string, columns: string[]) =>
  trx(table).where('id', id).forUpdate().first(columns);

export async function localizeCampaignHandler(ctx: AppContext): Promise<void> {
  const campaign = visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  const { locales } = inputOf<{ locales: Record<string, Copy> }>(ctx);
  const row = await ctx.deps.db.transaction(async (trx) => {
    const current = await lockRow(trx, 'campaigns', campaign.id, ['name', 'description', 'i18n']);
    if (!current) throw new NotFoundError('Campaign not found');
    if (Object.keys(locales).length === 0) return current;
    const hash = sourceHash(CAMPAIGN_SOURCE, current);
    const updatedAt = new Date().toISOString();
    const patch = Object.fromEntries(Object.entries(locales).map(([locale, copy]) => [locale, { ...copy, source_hash: hash, updated_at: updatedAt }]));
    const [updated] = await trx('campaigns').where('id', campaign.id)
      .update({ i18n: trx.raw('i18n || ?::jsonb', [JSON.stringify(patch)]) }, ['name', 'description', 'i18n']);
    return updated;
  });
  if (Object.keys(locales).length > 0) forgetAppCaches(ctx, campaign.app_id as string);
  ctx.body = { campaign_id: campaign.id, updated_locales: Object.keys(locales).sort(), ...campaignI18nView(row) };
}

const APP_I18N_COLUMNS = ['name', 'description', 'tagline', 'name_i18n', 'description_i18n', 'tagline_i18n', 'i18n_meta'];

export async function localizeAppHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { locales } = inputOf<{ locales: Record<string, Copy> }>(ctx);
  const row = await ctx.deps.db.transaction(async (trx) => {
    const current = await lockRow(trx, 'apps', app.id, APP_I18N_COLUMNS) as AppI18nRow | undefined;
    if (!current) throw new NotFoundError('App not found');
    if (Object.keys(locales).length === 0) return current;
    const hash = sourceHash(APP_SOURCE, current);
    const updatedAt = new Date().toISOString();
    const next: Record<string, Record<string, unknown>> = {
      name_i18n: { ...(current.name_i18n as object) }, description_i18n: { ...(current.description_i18n as object) },
      tagline_i18n: { ...(current.tagline_i18n as object) }, i18n_meta: { ...(current.i18n_meta as object) },
    };
    for (const [locale, copy] of Object.entries(locales)) {
      for (const field of APP_SOURCE) {
        if (copy[field] !== undefined) next[`${field}_i18n`]![locale] = copy[field];
        else delete next[`${field}_i18n`]![locale];
      }
      next.i18n_meta![locale] = { source_hash: hash, updated_at: updatedAt };
    }
    const [updated] = await trx('apps').where('id', app.id)
      .update(Object.fromEntries(Object.entries(next).map(([k, v]) => [k, JSON.stringify(v)])), APP_I18N_COLUMNS);
    return updated as AppI18nRow;
  });
  if (Object.keys(locales).length > 0) forgetAppCaches(ctx, app.id);
  ctx.body = { app_id: app.id, updated_locales: Object.keys(locales).sort(), ...appI18nView(row) };
}
