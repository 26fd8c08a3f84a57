// GET /store/search?term=&platform=ios&country=us&limit=1..50 and GET /store/scrape?url= | ?id= (apps:read): the
// public store search and lookup API (STORE_SEARCH_ROOT, default Apple's) through clients/store-search.ts,
// normalized to `{store, id, name, bundle_id, developer, url, icon_url, genre}` (scrape adds `description`). Only the
// App Store is searchable (Google Play has no public search API). The store failing or unreachable is 502 saying so;
// an id the store does not know is 404.
import { appStoreIdOf, lookupStoreListing, searchStore, StoreSearchError } from '../../clients/store-search.js';
import { AppError, NotFoundError, ValidationError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';

const country = { type: 'string', pattern: '^[a-zA-Z]{2}$', default: 'us', description: 'Store country (ISO 3166-1 alpha-2)' } as const;
const platform = { enum: ['ios'], default: 'ios', description: 'ios (App Store); Google Play has no public search API' } as const;

export const storeSearchQuery = {
  type: 'object',
  required: ['term'],
  properties: {
    term: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'Search words' },
    platform,
    country,
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  },
} as const;

export const storeScrapeQuery = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048, description: 'App Store listing URL (…/id123456789)' },
    id: { type: 'string', pattern: '^\\d{1,20}$', description: 'Numeric App Store id' },
    platform,
    country,
  },
} as const;

class BadGatewayError extends AppError {
  constructor(detail: string) {
    super(502, detail);
  }
}

async function upstream<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof StoreSearchError) throw new BadGatewayError(`Store search failed: ${err.message} Try again later.`);
    throw err;
  }
}

const rootOf = (ctx: AppContext) => ctx.deps.config.STORE_SEARCH_ROOT;

export async function storeSearchHandler(ctx: AppContext): Promise<void> {
  const q = inputOf<{ term: string; platform: 'ios'; country: string; limit: number }>(ctx);
  const cc = q.country.toLowerCase();
  const results = await upstream(() => searchStore(rootOf(ctx), { term: q.term.trim(), country: cc, limit: q.limit }));
  ctx.body = { term: q.term, platform: q.platform, country: cc, results, count: results.length };
}

export async function storeScrapeHandler(ctx: AppContext): Promise<void> {
  const q = inputOf<{ url?: string; id?: string; country: string }>(ctx);
  let id = q.id;
  let cc = q.country.toLowerCase();
  if (!id && q.url) {
    id = appStoreIdOf(q.url);
    if (!id)
      throw new ValidationError([
        { loc: ['query', 'url'], msg: 'Not an App Store listing URL (expected …/id<digits>)', type: 'value_error' },
      ]);
    const urlCountry = /apps\.apple\.com\/([a-z]{2})\//i.exec(q.url)?.[1];
    if (urlCountry && !ctx.query.country) cc = urlCountry.toLowerCase();
  }
  if (!id) throw new ValidationError([{ loc: ['query', 'url'], msg: 'Give `url` or `id`', type: 'missing' }]);
  const listing = await upstream(() => lookupStoreListing(rootOf(ctx), { id: id, country: cc }));
  if (!listing) throw new NotFoundError(`The App Store has no listing with id ${id} in country ${cc}.`);
  ctx.body = { ...listing, country: cc };
}
