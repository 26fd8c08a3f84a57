// A small client for the public store search / lookup API (STORE_SEARCH_ROOT, Apple's iTunes Search API wire format:
// `{resultCount, results: [{trackId, trackName, bundleId, sellerName, trackViewUrl, artworkUrl100, description,
// primaryGenreName}]}`), normalized into store listings. Any upstream failure is a StoreSearchError.

export interface StoreListing {
  store: 'app_store';
  id: string;
  name: string;
  bundle_id: string | null;
  developer: string | null;
  url: string | null;
  icon_url: string | null;
  genre: string | null;
  description?: string | null;
}

export class StoreSearchError extends Error {}

interface ItunesResult {
  trackId?: number | string;
  trackName?: string;
  bundleId?: string;
  sellerName?: string;
  artistName?: string;
  trackViewUrl?: string;
  artworkUrl100?: string;
  artworkUrl512?: string;
  description?: string;
  primaryGenreName?: string;
  kind?: string;
  wrapperType?: string;
}

const TIMEOUT_MS = 10_000;

function normalize(r: ItunesResult, withDescription: boolean): StoreListing {
  const listing: StoreListing = {
    store: 'app_store',
    id: String(r.trackId),
    name: r.trackName ?? '',
    bundle_id: r.bundleId ?? null,
    developer: r.sellerName ?? r.artistName ?? null,
    url: r.trackViewUrl ?? null,
    icon_url: r.artworkUrl100 ?? r.artworkUrl512 ?? null,
    genre: r.primaryGenreName ?? null,
  };
  if (withDescription) listing.description = r.description ?? null;
  return listing;
}

async function call(root: string, path: string, params: Record<string, string>): Promise<ItunesResult[]> {
  const url = new URL(path, root.endsWith('/') ? root : `${root}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new StoreSearchError(`The store search service at ${url.origin} could not be reached (${(err as Error).message}).`);
  }
  if (!res.ok) throw new StoreSearchError(`The store search service answered HTTP ${res.status} for ${path}.`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new StoreSearchError(`The store search service answered ${path} with something that is not JSON.`);
  }
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new StoreSearchError(`The store search service answered ${path} without a results list.`);
  // Only apps: the API can mix in other media when asked loosely.
  return (results as ItunesResult[]).filter((r) => r && r.trackId !== undefined && (r.kind === undefined || r.kind === 'software'));
}

export async function searchStore(root: string, q: { term: string; country: string; limit: number }): Promise<StoreListing[]> {
  const results = await call(root, 'search', { term: q.term, entity: 'software', country: q.country, limit: String(q.limit) });
  return results.map((r) => normalize(r, false));
}

/** One listing by its numeric App Store id, or undefined when the store does not know it. */
export async function lookupStoreListing(root: string, q: { id: string; country: string }): Promise<StoreListing | undefined> {
  const [first] = await call(root, 'lookup', { id: q.id, country: q.country });
  return first ? normalize(first, true) : undefined;
}

/** The numeric App Store id in an App Store URL (`https://apps.apple.com/us/app/name/id123456789`). */
export function appStoreIdOf(url: string): string | undefined {
  return /(?:^|[/?&])id(\d{5,})(?:$|[/?&#])/.exec(url)?.[1] ?? /[?&]id=(\d{5,})/.exec(url)?.[1];
}
