// The per-storefront tax table behind an ESTIMATED proceeds basis (docs/purchase-pipeline.md "Commission basis"):
// the standard VAT/GST rate on digital services of the major App Store and Google Play storefronts, where the
// customer's price includes it (tax-inclusive pricing, so the tax is price × rate / (100 + rate)). The United States
// and Canada price without tax (sales tax is added on top of the store price), so their tax out of the price is 0.
// Rates as of 2025; a storefront that is not listed has no estimate (lib/commission-basis.ts says what then).
// Pure data and lookups: no I/O.

/** One storefront: ISO 3166-1 alpha-2 (Google's regionCode, the provider's country_code) and alpha-3 (Apple's storefront). */
interface StorefrontTax {
  alpha3: string;
  /** The tax rate in percent of the price without tax, as a decimal string (exact: 25.5 is "25.5"). */
  ratePercent: string;
}

const TABLE: Readonly<Record<string, StorefrontTax>> = {
  US: { alpha3: 'USA', ratePercent: '0' },
  CA: { alpha3: 'CAN', ratePercent: '0' },
  GB: { alpha3: 'GBR', ratePercent: '20' },
  DE: { alpha3: 'DEU', ratePercent: '19' },
  FR: { alpha3: 'FRA', ratePercent: '20' },
  IT: { alpha3: 'ITA', ratePercent: '22' },
  ES: { alpha3: 'ESP', ratePercent: '21' },
  NL: { alpha3: 'NLD', ratePercent: '21' },
  BE: { alpha3: 'BEL', ratePercent: '21' },
  AT: { alpha3: 'AUT', ratePercent: '20' },
  IE: { alpha3: 'IRL', ratePercent: '23' },
  PT: { alpha3: 'PRT', ratePercent: '23' },
  PL: { alpha3: 'POL', ratePercent: '23' },
  SE: { alpha3: 'SWE', ratePercent: '25' },
  DK: { alpha3: 'DNK', ratePercent: '25' },
  FI: { alpha3: 'FIN', ratePercent: '25.5' },
  NO: { alpha3: 'NOR', ratePercent: '25' },
  CH: { alpha3: 'CHE', ratePercent: '8.1' },
  CZ: { alpha3: 'CZE', ratePercent: '21' },
  GR: { alpha3: 'GRC', ratePercent: '24' },
  HU: { alpha3: 'HUN', ratePercent: '27' },
  LU: { alpha3: 'LUX', ratePercent: '17' },
  JP: { alpha3: 'JPN', ratePercent: '10' },
  KR: { alpha3: 'KOR', ratePercent: '10' },
  AU: { alpha3: 'AUS', ratePercent: '10' },
  NZ: { alpha3: 'NZL', ratePercent: '15' },
  SG: { alpha3: 'SGP', ratePercent: '9' },
  IN: { alpha3: 'IND', ratePercent: '18' },
  MX: { alpha3: 'MEX', ratePercent: '16' },
  TR: { alpha3: 'TUR', ratePercent: '20' },
  ZA: { alpha3: 'ZAF', ratePercent: '15' },
  AE: { alpha3: 'ARE', ratePercent: '5' },
  SA: { alpha3: 'SAU', ratePercent: '15' },
};

const BY_ALPHA3: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(TABLE).map(([a2, t]) => [t.alpha3, a2]));

/** The table's alpha-2 code of a storefront given as alpha-2 or alpha-3 (any case); undefined when not in the table. */
export function storefrontCode(storefront: string | null | undefined): string | undefined {
  if (!storefront) return undefined;
  const code = storefront.trim().toUpperCase();
  if (code.length === 2 && TABLE[code]) return code;
  return code.length === 3 ? BY_ALPHA3[code] : undefined;
}

/** The storefront's tax rate in thousandths of a percent (19 % is 19000), or undefined when it is not in the table. */
export function taxRateMilli(storefront: string | null | undefined): bigint | undefined {
  const code = storefrontCode(storefront);
  if (!code) return undefined;
  const [whole = '0', frac = ''] = TABLE[code]!.ratePercent.split('.');
  return BigInt(whole) * 1000n + BigInt((frac + '000').slice(0, 3));
}

/** Every storefront of the table (alpha-2), for the docs and the tests. */
export const TAXED_STOREFRONTS: readonly string[] = Object.keys(TABLE);
