// Client IP addresses as pure data: one canonical text per address, its kind (public or one of the ranges a server
// should never read as "a person's address"), and the network prefixes the fraud signals group by.
//
// Parsing is ipaddr.js (MIT, no dependencies, the parser Express's proxy-addr uses): IPv6 text has many spellings
// (compression, case, embedded IPv4, zone ids) and a hand-written parser would be a second source of truth. Its
// IPv4 parser also accepts the legacy forms `127.1`, `0x7f.0.0.1` and `017.0.0.1`; those are refused here (only the
// four-part decimal form counts as an address), so a crafted header can never name loopback in disguise.
import ipaddr from 'ipaddr.js';

export type IpFamily = 4 | 6;

/**
 * What an address is, for the question "is this a client on the internet?". `public` is the only kind the IP
 * signals read; every other kind means the address says nothing about the person behind it.
 *  - `loopback` 127/8, ::1;  `private` 10/8, 172.16/12, 192.168/16 and IPv6 unique-local fc00::/7;
 *  - `link_local` 169.254/16, fe80::/10;  `carrier_nat` 100.64/10 (RFC 6598: the inside of a carrier's NAT);
 *  - `unspecified` 0.0.0.0, ::;  `reserved` documentation-free special ranges, multicast and broadcast.
 * Documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32) count as public on purpose: tests
 * and examples use them as stand-ins for real clients.
 */
export type IpKind = 'public' | 'loopback' | 'private' | 'link_local' | 'carrier_nat' | 'unspecified' | 'reserved';

export interface ParsedIp {
  /** Canonical text: IPv4 dotted decimal (an IPv4-mapped IPv6 address becomes its IPv4), IPv6 in RFC 5952 form. */
  ip: string;
  family: IpFamily;
  kind: IpKind;
}

const V4_KINDS: Partial<Record<string, IpKind>> = {
  unicast: 'public',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link_local',
  carrierGradeNat: 'carrier_nat',
  unspecified: 'unspecified',
};
const V6_KINDS: Partial<Record<string, IpKind>> = {
  unicast: 'public',
  loopback: 'loopback',
  uniqueLocal: 'private',
  linkLocal: 'link_local',
  unspecified: 'unspecified',
};
/** ipaddr.js names the documentation prefixes `reserved`; they are public stand-ins here (see IpKind). */
const V4_DOCUMENTATION = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'].map((c) => ipaddr.IPv4.parseCIDR(c));
const V6_DOCUMENTATION = ipaddr.IPv6.parseCIDR('2001:db8::/32');

function parseAddress(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = raw.trim();
  if (!text.includes(':')) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
  if (!ipaddr.IPv6.isValid(text)) return null;
  const v6 = ipaddr.IPv6.parse(text);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  v6.zoneId = undefined; // fe80::1%eth0: the zone names the server's interface, not the client
  return v6;
}

/** The address parsed, canonical and classified; null when the text is not an IPv4 or IPv6 address. */
export function parseIp(raw: string | null | undefined): ParsedIp | null {
  if (!raw) return null;
  const addr = parseAddress(raw);
  if (!addr) return null;
  if (addr.kind() === 'ipv4') {
    const v4 = addr as ipaddr.IPv4;
    const kind = V4_DOCUMENTATION.some((cidr) => v4.match(cidr)) ? 'public' : (V4_KINDS[v4.range()] ?? 'reserved');
    return { ip: v4.toString(), family: 4, kind };
  }
  const v6 = addr as ipaddr.IPv6;
  const kind = v6.match(V6_DOCUMENTATION) ? 'public' : (V6_KINDS[v6.range()] ?? 'reserved');
  return { ip: v6.toRFC5952String(), family: 6, kind };
}

/**
 * The text to store for a client address: the canonical form when it parses (`::ffff:203.0.113.7` becomes
 * `203.0.113.7`, `2001:DB8:0:0::1` becomes `2001:db8::1`), otherwise the text as it came (the edge never refuses a
 * request over its address; a value that is no address simply never matches one).
 */
export function normalizeIp(raw: string): string {
  // The common cases without parsing (the hot paths take this per request): IPv4, and IPv4 on a dual-stack socket.
  if (CANONICAL_V4.test(raw)) return raw;
  const mapped = MAPPED_V4.exec(raw);
  if (mapped) return mapped[1]!;
  const addr = parseAddress(raw);
  return addr ? canonicalText(addr) : raw;
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const CANONICAL_V4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const MAPPED_V4 = new RegExp(`^::ffff:(${OCTET}(?:\\.${OCTET}){3})$`, 'i');

function canonicalText(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString();
}

/**
 * The network an address belongs to at `bits` (IPv4 0-32, IPv6 0-128), as CIDR text: `203.0.113.0/24`,
 * `2001:db8:1:2::/64`. Null when the text is no address or `bits` is out of range for its family.
 */
export function ipPrefix(raw: string | null | undefined, bits: number): string | null {
  const parsed = parseIp(raw);
  if (!parsed || !Number.isInteger(bits) || bits < 0 || bits > (parsed.family === 4 ? 32 : 128)) return null;
  const bytes = ipaddr.parse(parsed.ip).toByteArray();
  const masked = bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return `${canonicalText(ipaddr.fromByteArray(masked))}/${bits}`;
}

/** The prefix lengths the IP signals group by: one subscriber (strong) and one neighbourhood (weak) per family. */
export const IP_GROUP_BITS = { 4: { exact: 32, weak: 24 }, 6: { exact: 64, weak: 48 } } as const;

/**
 * The two groups of an address: `exact` is one IPv4 address (/32) or one IPv6 subscriber network (/64, what a
 * provider hands one household or phone); `weak` is the IPv4 /24 or the IPv6 /48 around it, many unrelated
 * subscribers, so only weak evidence. Null when the text is no address.
 */
export function ipGroups(raw: string | null | undefined): { family: IpFamily; exact: string; weak: string } | null {
  const parsed = parseIp(raw);
  if (!parsed) return null;
  const bits = IP_GROUP_BITS[parsed.family];
  return { family: parsed.family, exact: ipPrefix(parsed.ip, bits.exact)!, weak: ipPrefix(parsed.ip, bits.weak)! };
}
