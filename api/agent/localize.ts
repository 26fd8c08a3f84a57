// POST /campaigns/{campaign_id}/localize (campaigns:write) and POST /apps/{app_id}/localize (apps:write): the agent
// supplies translated copy per locale (`{"locales": {"de": {"name": "...", "description": "..."}}}`; apps also take
// `tagline`). Each supplied locale replaces that locale's copy whole and records the SHA-256 of the source text it
// translates (campaign: name + description; app: name + description + tagline) and `updated_at`; other locales are
// kept. A locale is `fresh` while the source text still hashes the same and `stale` after it changed, however it
// changed (PATCH, dashboard, SQL). The response lists every stored locale with its status and `stale_locales`;
// `{"locales": {}}` only reports. `campaignI18nView` / `appI18nView` give the same view for the GET endpoints.
import { findApp, type AppCopy, type AppI18nColumn } from '../../db/apps.js';
import { localizeApp } from '../../actions/apps.js';
import { localizeCampaign } from '../../actions/campaigns.js';
import { findCampaign } from '../../db/campaigns.js';
import { freshnessOf, LOCALE_PATTERN, sourceHash, summarize, type Freshness, type LocaleMeta } from '../../lib/i18n-freshness.js';
import { NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { visibleTo } from './principal.js';

const CAMPAIGN_SOURCE = ['name', 'description'] as const;
const APP_SOURCE = ['name', 'description', 'tagline'] as const;

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;

const localizeBody = (fields: Record<string, object>) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['locales'],
    properties: {
      locales: {
        type: 'object',
        maxProperties: 100,
        description: `Locale (${LOCALE_PATTERN}, e.g. "de", "pt-BR") to its translated copy`,
        propertyNames: { pattern: LOCALE_PATTERN },
        additionalProperties: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields },
      },
    },
  }) as const;

export const localizeCampaignBody = localizeBody({ name: text(200), description: text(5000) });
export const localizeAppBody = localizeBody({ name: text(200), description: text(5000), tagline: text(300) });

type Copy = Record<string, string>;
interface LocaleView {
  status: Freshness;
  source_hash: string | null;
  updated_at: string | null;
  [field: string]: unknown;
}

function view(sourceHashNow: string, entries: Record<string, { copy: Copy; meta: Partial<LocaleMeta> | undefined }>) {
  const locales: Record<string, LocaleView> = {};
  for (const [locale, { copy, meta }] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
    locales[locale] = {
      ...copy,
      source_hash: meta?.source_hash ?? null,
      updated_at: meta?.updated_at ?? null,
      status: freshnessOf(meta, sourceHashNow),
    };
  }
  return { source_hash: sourceHashNow, locales, ...summarize(locales) };
}

type CampaignI18n = Record<string, Copy & Partial<LocaleMeta>>;

/** The campaign's localized copy with each locale's freshness. */
export function campaignI18nView(campaign: { name: unknown; description: unknown; i18n: unknown }) {
  const hash = sourceHash(CAMPAIGN_SOURCE, campaign);
  const stored = (campaign.i18n ?? {}) as CampaignI18n;
  return view(
    hash,
    Object.fromEntries(
      Object.entries(stored).map(([locale, { source_hash, updated_at, ...copy }]) => [locale, { copy, meta: { source_hash, updated_at } }]),
    ),
  );
}

/** The app's localized copy (name_i18n, description_i18n, tagline_i18n) with each locale's freshness (i18n_meta). */
export function appI18nView(app: AppCopy) {
  const hash = sourceHash(APP_SOURCE, app);
  const maps = { name: app.name_i18n, description: app.description_i18n, tagline: app.tagline_i18n } as Record<
    string,
    Record<string, string> | null
  >;
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

export type AppMaps = Partial<Record<'name_i18n' | 'description_i18n' | 'tagline_i18n', Record<string, string>>>;

/**
 * PATCH /apps/{app_id} with localized maps: each given map replaces that field's translations whole, and every
 * locale the given maps hold is recorded, as /localize records it, against the current source text (so a PATCH that
 * changes name and name_i18n together leaves those locales fresh). Locales left in no map lose their record.
 */
export function replaceAppMaps(current: AppCopy, maps: AppMaps): Record<AppI18nColumn, object> {
  const hash = sourceHash(APP_SOURCE, current);
  const updatedAt = new Date().toISOString();
  const next = {
    name_i18n: maps.name_i18n ?? current.name_i18n ?? {},
    description_i18n: maps.description_i18n ?? current.description_i18n ?? {},
    tagline_i18n: maps.tagline_i18n ?? current.tagline_i18n ?? {},
  } as Record<'name_i18n' | 'description_i18n' | 'tagline_i18n', Record<string, string>>;
  const meta = { ...(current.i18n_meta as Record<string, LocaleMeta>) };
  for (const map of Object.values(maps)) for (const locale of Object.keys(map)) meta[locale] = { source_hash: hash, updated_at: updatedAt };
  const kept = new Set(Object.values(next).flatMap((m) => Object.keys(m)));
  for (const locale of Object.keys(meta)) if (!kept.has(locale)) delete meta[locale];
  return { ...next, i18n_meta: meta };
}

export async function localizeCampaignHandler(ctx: AppContext): Promise<void> {
  const campaign = visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  const { locales } = inputOf<{ locales: Record<string, Copy> }>(ctx);
  const row = await localizeCampaign(ctx.deps, {
    campaignId: campaign.id,
    patchFor: (current) => {
      if (Object.keys(locales).length === 0) return null;
      const hash = sourceHash(CAMPAIGN_SOURCE, current);
      const updatedAt = new Date().toISOString();
      return Object.fromEntries(
        Object.entries(locales).map(([locale, copy]) => [locale, { ...copy, source_hash: hash, updated_at: updatedAt }]),
      );
    },
  });
  if (!row) throw new NotFoundError('Campaign not found');
  if (Object.keys(locales).length > 0) forgetAppCaches(ctx, campaign.app_id as string);
  ctx.body = { campaign_id: campaign.id, updated_locales: Object.keys(locales).sort(), ...campaignI18nView(row) };
}

export async function localizeAppHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { locales } = inputOf<{ locales: Record<string, Copy> }>(ctx);
  const row = await localizeApp(ctx.deps, {
    appId: app.id,
    nextFor: (current) => {
      if (Object.keys(locales).length === 0) return null;
      const hash = sourceHash(APP_SOURCE, current);
      const updatedAt = new Date().toISOString();
      const next: Record<AppI18nColumn, Record<string, unknown>> = {
        name_i18n: { ...(current.name_i18n as object) },
        description_i18n: { ...(current.description_i18n as object) },
        tagline_i18n: { ...(current.tagline_i18n as object) },
        i18n_meta: { ...(current.i18n_meta as object) },
      };
      for (const [locale, copy] of Object.entries(locales)) {
        for (const field of APP_SOURCE) {
          if (copy[field] !== undefined) next[`${field}_i18n`][locale] = copy[field];
          else delete next[`${field}_i18n`][locale];
        }
        next.i18n_meta[locale] = { source_hash: hash, updated_at: updatedAt };
      }
      return next;
    },
  });
  if (!row) throw new NotFoundError('App not found');
  if (Object.keys(locales).length > 0) forgetAppCaches(ctx, app.id);
  ctx.body = { app_id: app.id, updated_locales: Object.keys(locales).sort(), ...appI18nView(row) };
}
