// The exchange-rate cache: USD rates per day and currency (fx_rates) and the reads of ECB files that filled it
// (fx_rate_loads), so a cached rate is known to be the latest published one not after a purchase date. The rules
// are in lib/fx.ts; the source is fetched by whoever wires fxRatePorts (clients/ecb-rates.ts).
import type { Knex } from 'knex';
import { usdPerUnit, type FxRatePorts, type PublishedDay, type UsdRate } from '../lib/fx.js';

/** A read this recent also vouches for the days after its last published one (today's rate may not be out yet). */
const FRESH_READ_MINUTES = 10;
const BATCH = 1000;

const trimZeros = (d: string) => (d.includes('.') ? d.replace(/\.?0+$/, '') : d);

/** The rate of the latest published day not after `day`, when a recorded read spans `day` (see FxRatePorts). */
async function findCoveredUsdRate(db: Knex, currency: string, day: string): Promise<UsdRate | 'unknown' | 'none'> {
  const { rows } = await db.raw<{
    rows: { first_date: string | null; rate_date: string | null; usd_per_unit: string | null; source: string | null }[];
  }>(
    `
    with span as (
      select min(first_date) as first_date from fx_rate_loads
      where first_date <= :day::date
        and (last_date >= :day::date
          or fetched_at >= ((:day::date + 1)::timestamp at time zone 'UTC')
          or fetched_at >= now() - make_interval(mins => :fresh))
    )
    select s.first_date, r.rate_date, r.usd_per_unit, r.source
    from span s left join lateral (
      select rate_date, usd_per_unit, source from fx_rates
      where currency = :currency and rate_date <= :day::date and rate_date >= s.first_date
      order by rate_date desc limit 1
    ) r on true`,
    { day, currency, fresh: FRESH_READ_MINUTES },
  );
  const row = rows[0];
  if (!row?.first_date) return 'unknown';
  if (!row.rate_date || !row.usd_per_unit || !row.source) return 'none';
  return { currency, usdPerUnit: trimZeros(row.usd_per_unit), rateDate: row.rate_date, source: row.source };
}

/** Stores every day of one file (EUR and each currency against USD) and records the read; days already cached stay. */
async function storePublishedDays(db: Knex, source: string, days: PublishedDay[]): Promise<void> {
  const withUsd = days.filter((d) => d.rates.USD !== undefined);
  if (withUsd.length === 0) return;
  const rows = withUsd.flatMap((d) => [
    { currency: 'EUR', rate_date: d.date, usd_per_unit: trimZeros(d.rates.USD!), source },
    ...Object.entries(d.rates)
      .filter(([c]) => c !== 'USD' && c !== 'EUR')
      .map(([currency, rate]) => ({ currency, rate_date: d.date, usd_per_unit: usdPerUnit(d.rates.USD!, rate), source })),
  ]);
  await db.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      await trx('fx_rates')
        .insert(rows.slice(i, i + BATCH))
        .onConflict(['currency', 'rate_date'])
        .ignore();
    }
    await trx('fx_rate_loads').insert({ source, first_date: withUsd[0]!.date, last_date: withUsd.at(-1)!.date });
  });
}

/** Reads of the same file into the same database at the same time share one download. */
const inFlight = new WeakMap<Knex, Map<string, Promise<void>>>();

/** The cache and source resolveUsdRate needs, over this database and the given file reader. */
export function fxRatePorts(
  db: Knex,
  fetchFile: (url: string) => Promise<PublishedDay[]>,
  urls: { recent: string; history: string },
): FxRatePorts {
  let loads = inFlight.get(db);
  if (!loads) inFlight.set(db, (loads = new Map()));
  const running = loads;
  return {
    cached: (currency, day) => findCoveredUsdRate(db, currency, day),
    load: (which) => {
      const url = urls[which];
      let load = running.get(url);
      if (!load) {
        load = fetchFile(url)
          .then((days) => storePublishedDays(db, url, days))
          .finally(() => running.delete(url));
        running.set(url, load);
      }
      return load;
    },
  };
}
