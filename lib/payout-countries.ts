// The countries a creator can connect a payout account from: one list, used by the connect form's select, the
// connect check (anything else is 422 naming `country`) and test mode alike (actions/payout-accounts.ts).
//
// Source: Stripe's "Cross-border payouts" page (https://stripe.com/docs/connect/cross-border-payouts, "Supported
// countries": where a platform in the US can pay Express accounts under the recipient service agreement), taken on
// 2026-11-29 from the copy stored for this project. Stripe's current page lists more countries (with per-country
// minimums on https://docs.stripe.com/connect/cross-border-payouts/special-requirements); this list keeps to the ones
// that page named, and the platform's own country (PAYOUT_PLATFORM_COUNTRY) is always allowed beside them. Extend it
// here, in one place, with the date and the source of the new list.
export const PAYOUT_COUNTRIES_TAKEN_ON = '2026-11-29';

export const CROSS_BORDER_COUNTRIES = [
  'AU',
  'AT',
  'BE',
  'BG',
  'CA',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HK',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'NZ',
  'NO',
  'PL',
  'PT',
  'RO',
  'SG',
  'SK',
  'SI',
  'ES',
  'SE',
  'CH',
  'GB',
] as const;

const names = new Intl.DisplayNames(['en'], { type: 'region' });

export interface PayoutCountry {
  code: string;
  name: string;
}

/** Every country a creator may choose, by English name; the platform's own country included. */
export function payoutCountries(platformCountry: string): PayoutCountry[] {
  const codes = new Set<string>([platformCountry.toUpperCase(), ...CROSS_BORDER_COUNTRIES]);
  return [...codes].map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export function isPayoutCountry(code: string, platformCountry: string): boolean {
  return payoutCountries(platformCountry).some((c) => c.code === code);
}

export function countryName(code: string): string {
  return names.of(code) ?? code;
}
