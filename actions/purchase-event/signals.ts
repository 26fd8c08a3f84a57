// The fraud signals of one attributed purchase (docs/fraud-signals.md): the facts read in one read-only statement
// (db/fraud-facts.ts), each rule of lib/fraud-signals run on them, and the campaign's setting deciding what the
// raised ones do. Used by the earn (before it takes the organization lock) and by the release step (again, before a
// commission becomes payable).
import type { Knex } from 'knex';
import { hintsFromUserAgent, type DeviceHints } from '../../lib/device.js';
import {
  allSignalsOff,
  clickInjection,
  decideReview,
  installFarm,
  leakedCode,
  refundAbuse,
  selfReferral,
  signalActionsOf,
  type FarmInstall,
  type IpTrust,
  type ReviewDecision,
  type SignalOutcome,
} from '../../lib/fraud-signals/index.js';
import { readFraudFacts, type FactsQuery, type FraudFactsRow, type InstallFacts } from '../../db/fraud-facts.js';

export interface SignalQuery extends FactsQuery {
  /** The provider's `$email` subscriber attribute on the event, when it carried one. */
  providerEmail: string | null;
  /** The campaign's fraud_signal_actions as stored. */
  settings: unknown;
}

const date = (v: string | null) => (v === null ? null : new Date(v));
const seconds = (v: string | null) => (v === null ? null : Math.floor(new Date(v).getTime() / 1000));

function hintsOf(i: InstallFacts): DeviceHints {
  return { platform: i.platform, osVersion: i.os_version, language: i.language, timezone: i.timezone, screen: i.screen };
}

const farmInstall = (i: InstallFacts): FarmInstall => ({
  id: i.id,
  ip: i.ip,
  at: new Date(i.at),
  device: { ...hintsOf(i), brand: i.brand, model: i.model },
});

/** Every rule on the facts; an install-less purchase skips the rules that need an install. */
export function outcomesOf(f: FraudFactsRow, q: Pick<SignalQuery, 'providerEmail' | 'at'>): SignalOutcome[] {
  const install = f.install;
  // The install's request came through a proxy we were told not to trust: its address is the proxy's.
  const trust: IpTrust = { trustProxy: false, behindProxy: install?.ip_via_untrusted_proxy ?? false };
  const outcomes: SignalOutcome[] = [
    selfReferral({
      creatorEmail: f.creator_email,
      purchaserEmails: [
        { source: 'provider_email_attribute', email: q.providerEmail },
        ...f.identified_emails.map((email) => ({ source: 'identified_user' as const, email })),
      ],
      install: install && { ip: install.ip, at: new Date(install.at), hints: hintsOf(install) },
      sightings: f.sightings.map((s) => ({ source: s.source, ip: s.ip, at: new Date(s.at), hints: hintsFromUserAgent(s.user_agent) })),
      trust,
    }),
    f.app_refunds ? refundAbuse({ creator: f.creator_refunds, app: f.app_refunds }) : null,
    leakedCode({ redemptions: f.redemptions.map((r) => ({ userId: r.user_id, at: new Date(r.at), viaClickOrLink: r.via })), now: q.at }),
  ];
  if (install) {
    outcomes.push(
      installFarm({ install: farmInstall(install), creatorInstalls: f.creator_installs.map(farmInstall), trust }),
      clickInjection({
        platform: install.platform,
        referrer: {
          referrerClickTimestampSeconds: seconds(install.referrer_click_at),
          installBeginTimestampSeconds: seconds(install.install_begin_at),
          installBeginTimestampServerSeconds: seconds(install.install_begin_server_at),
        },
        clickAt: date(f.click_at),
      }),
    );
  }
  return outcomes;
}

/** The review this purchase's commission needs (null: none), read-only. */
export async function reviewOfPurchase(db: Knex | Knex.Transaction, q: SignalQuery): Promise<ReviewDecision | null> {
  const settings = signalActionsOf(q.settings);
  if (allSignalsOff(settings)) return null;
  const facts = await readFraudFacts(db, q);
  return decideReview(outcomesOf(facts, q), settings);
}

/** The provider's `$email` subscriber attribute of an event's attributes (RevenueCat-style `{value}` entries). */
export function providerEmailOf(attributes: Record<string, { value: string } | undefined> | undefined): string | null {
  const v = attributes?.['$email']?.value;
  return typeof v === 'string' && v.includes('@') ? v : null;
}
