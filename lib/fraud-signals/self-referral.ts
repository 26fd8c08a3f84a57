// self_referral: the purchaser is the creator. Two independent ways to see it:
//  1. Email: an email known for the purchaser (the provider's `$email` subscriber attribute, or the email of the
//     user the app identified) is the creator's own, normalised (./email.ts: case, +tag, Gmail dots and
//     googlemail.com). A creator without an email has none of this half of the signal.
//  2. Address and device: the attributed install came from the address the creator used for a portal sign-in or for
//     joining (IPv4: the same address; IPv6: the same /64, as phones rotate addresses inside their network), within
//     SELF_REFERRAL_SIGHTING_WINDOW_DAYS of the install, and at least SELF_REFERRAL_MIN_SHARED_HINTS device hints that
//     both sides carry agree (lib/device.ts: platform, OS version, language, time zone, screen) with none disagreeing.
// The email half is checked first and needs no address; the address half is off (and says so) when the install's
// address cannot be read (./ip-trust.ts).
// False positives: a household or office sharing one Wi-Fi and the same phone model and OS version (the address
// half); two people on a mail host without sub-addressing (the email half, rare). Either way the review asks a
// person, and the signal is worded as what matched, never as a verdict.
import { hintsAgree, type DeviceHints } from '../device.js';
import { ipGroups } from '../ip-address.js';
import { normalizeEmail } from './email.js';
import { addressWords, ipSignalsOff, type IpTrust } from './ip-trust.js';
import type { FraudSignal, SignalOff } from './types.js';
import { list, span } from './words.js';

/** How far apart (either way) a creator's sign-in or join and the install may be for the address half to count. */
export const SELF_REFERRAL_SIGHTING_WINDOW_DAYS = 30;
/**
 * How long a creator's join address and User-Agent are kept (creator_codes.join_ip, join_user_agent): the sighting
 * window, plus the holding period a commission may wait before the re-evaluation before payment. Older ones are
 * nulled by the periodic prune (jobs/join-sighting-prune.ts).
 */
export const JOIN_SIGHTING_RETENTION_DAYS = 90;
/** Device hints present on both sides that must agree (platform and OS version, as a phone browser's agent gives). */
export const SELF_REFERRAL_MIN_SHARED_HINTS = 2;

export type PurchaserEmailSource = 'provider_email_attribute' | 'identified_user';

export interface CreatorSighting {
  /** The creator's own request the address comes from. */
  source: 'portal_sign_in' | 'join';
  ip: string | null;
  at: Date;
  /** From that request's User-Agent (lib/device.ts hintsFromUserAgent) and whatever else the page reported. */
  hints: DeviceHints;
}

export interface SelfReferralFacts {
  creatorEmail: string | null;
  purchaserEmails: readonly { source: PurchaserEmailSource; email: string | null }[];
  /** The purchase's attributed install; null when the purchase came without one (code typed, no install known). */
  install: { ip: string | null; at: Date; hints: DeviceHints } | null;
  /** The creator's portal sign-ins and join, as retained (see docs/fraud-signals.md for the retention). */
  sightings: readonly CreatorSighting[];
  trust: IpTrust;
}

const EMAIL_WORDS: Record<PurchaserEmailSource, string> = {
  provider_email_attribute: "the subscription provider's $email attribute",
  identified_user: "the identified user's email",
};
const SIGHTING_WORDS: Record<CreatorSighting['source'], string> = {
  portal_sign_in: 'signed in to the creator portal',
  join: 'joined the campaign',
};
const HINT_WORDS: Record<keyof DeviceHints, string> = {
  platform: 'platform',
  osVersion: 'OS version',
  language: 'language',
  timezone: 'time zone',
  screen: 'screen',
};

/** The names of the hints both sides carry. */
function sharedHints(a: DeviceHints, b: DeviceHints): (keyof DeviceHints)[] {
  const present = (v: unknown) => v !== null && v !== undefined && v !== '';
  return (Object.keys(HINT_WORDS) as (keyof DeviceHints)[]).filter((k) => present(a[k]) && present(b[k]));
}

function emailHalf(f: SelfReferralFacts): FraudSignal | null {
  const creator = normalizeEmail(f.creatorEmail);
  if (!creator) return null;
  const hit = f.purchaserEmails.find((p) => normalizeEmail(p.email) === creator);
  if (!hit) return null;
  return {
    signal: 'self_referral',
    evidence:
      `The purchaser's email (${EMAIL_WORDS[hit.source]}) is the creator's own address, ` + 'compared without case, +tags and Gmail dots.',
  };
}

function addressHalf(install: NonNullable<SelfReferralFacts['install']>, sightings: readonly CreatorSighting[]): FraudSignal | null {
  const groups = ipGroups(install.ip)!;
  const windowMs = SELF_REFERRAL_SIGHTING_WINDOW_DAYS * 86_400_000;
  for (const s of sightings) {
    if (ipGroups(s.ip)?.exact !== groups.exact) continue;
    const apart = install.at.getTime() - s.at.getTime();
    if (Math.abs(apart) > windowMs) continue;
    const shared = sharedHints(s.hints, install.hints);
    if (shared.length < SELF_REFERRAL_MIN_SHARED_HINTS || !hintsAgree(s.hints, install.hints)) continue;
    const where = addressWords(groups);
    const when = apart >= 0 ? `${span(apart)} before` : `${span(-apart)} after`;
    return {
      signal: 'self_referral',
      evidence:
        `The attributed install came from ${where}, where the creator ${SIGHTING_WORDS[s.source]} ${when} the install, ` +
        `with the same ${list(shared.map((k) => HINT_WORDS[k]))}.`,
    };
  }
  return null;
}

export function selfReferral(f: SelfReferralFacts): FraudSignal | SignalOff | null {
  const byEmail = emailHalf(f);
  if (byEmail) return byEmail;
  if (!f.install) return null;
  const off = ipSignalsOff(f.install.ip, f.trust);
  if (off) return { signal: 'self_referral', off };
  return addressHalf(f.install, f.sightings);
}
