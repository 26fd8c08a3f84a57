// When the IP signals (self_referral's address match, install_farm) can read an address at all. An address that is
// private, loopback, link-local, carrier-internal or unspecified is a proxy's or a network's, never a person's; and
// behind a proxy with TRUST_PROXY off every request carries the proxy's address. Then the signals are off and say so
// instead of flagging everybody (or nobody) silently.
import { parseIp, type IpKind } from '../ip-address.js';

export interface IpTrust {
  /** TRUST_PROXY: X-Forwarded-For is believed (the configured hops). */
  trustProxy: boolean;
  /** The API is known to run behind a proxy (the caller knows: requests arrive with X-Forwarded-For, or configuration). */
  behindProxy: boolean;
}

const KIND_WORDS: Record<Exclude<IpKind, 'public'>, string> = {
  loopback: 'a loopback address (the same machine: a local proxy or a test)',
  private: 'a private network address (a proxy or a local network)',
  link_local: 'a link-local address',
  carrier_nat: "an address inside a carrier's NAT (100.64.0.0/10)",
  unspecified: 'the unspecified address',
  reserved: 'a reserved address',
};

/** Why IP signals cannot read `ip`, in words; null when the address is a public client address they can use. */
export function ipSignalsOff(ip: string | null | undefined, trust: IpTrust): string | null {
  if (trust.behindProxy && !trust.trustProxy) {
    return "IP signals are off: the API runs behind a proxy with TRUST_PROXY off, so every recorded address is the proxy's.";
  }
  if (!ip) return 'IP signals are off: no client address was recorded.';
  const parsed = parseIp(ip);
  if (!parsed) return 'IP signals are off: the recorded client address is not an IP address.';
  if (parsed.kind !== 'public') return `IP signals are off: ${parsed.ip} is ${KIND_WORDS[parsed.kind]}, not a client's.`;
  return null;
}

/** How evidence names an address's exact group: the IPv4 address itself, or the IPv6 /64 as a network. */
export function addressWords(groups: { family: 4 | 6; exact: string }): string {
  return groups.family === 4 ? groups.exact.replace(/\/32$/, '') : `the IPv6 network ${groups.exact}`;
}
