// lib/ip-address.ts: canonical text, kind and network prefixes of client addresses (IPv4, IPv6, IPv4-mapped), and
// lib/fraud-signals/ip-trust.ts: when the IP signals are off and why.
import test from 'ava';
import { ipGroups, ipPrefix, normalizeIp, parseIp, type IpKind } from '../../lib/ip-address.js';
import { ipSignalsOff } from '../../lib/fraud-signals/ip-trust.js';

test('canonical text: IPv4-mapped IPv6 becomes IPv4, IPv6 is RFC 5952, anything else stays as it came', (t) => {
  const rows: [string, string][] = [
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::1', '::1'],
    ['127.1', '127.1'], // legacy short form: not an address here, so never loopback in disguise
    ['0x7f.0.0.1', '0x7f.0.0.1'],
    ['not-an-ip', 'not-an-ip'],
    ['', ''],
  ];
  for (const [raw, canonical] of rows) t.is(normalizeIp(raw), canonical, raw);
  // The edge's fast paths (plain and mapped IPv4) agree with the full parse.
  for (const [raw] of rows) if (parseIp(raw)) t.is(normalizeIp(raw), parseIp(raw)!.ip, `fast path ${raw}`);
});

test('kinds: public, loopback, private, link-local, carrier NAT (100.64/10), unspecified, reserved; v4, v6 and mapped', (t) => {
  const rows: [string, IpKind | null][] = [
    ['8.8.8.8', 'public'],
    ['203.0.113.7', 'public'], // documentation ranges stand in for real clients
    ['198.51.100.1', 'public'],
    ['192.0.2.1', 'public'],
    ['2001:db8::1', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.10.1', 'link_local'],
    ['fe80::abcd', 'link_local'],
    ['100.64.0.1', 'carrier_nat'],
    ['100.127.255.255', 'carrier_nat'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['junk', null],
  ];
  for (const [raw, kind] of rows) t.is(parseIp(raw)?.kind ?? null, kind, raw);
  t.is(parseIp('::ffff:203.0.113.7')?.family, 4);
  t.is(parseIp('2001:db8::1')?.family, 6);
  t.is(parseIp(null), null);
});

test('prefixes: /32 and /24 for IPv4, /64 and /48 for IPv6, mapped addresses grouped as IPv4', (t) => {
  const rows: [string, number, string | null][] = [
    ['203.0.113.7', 32, '203.0.113.7/32'],
    ['203.0.113.7', 24, '203.0.113.0/24'],
    ['203.0.113.7', 9, '203.0.0.0/9'],
    ['203.0.113.7', 0, '0.0.0.0/0'],
    ['::ffff:203.0.113.7', 24, '203.0.113.0/24'],
    ['2001:db8:1:2:3:4:5:6', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2:3:4:5:6', 48, '2001:db8:1::/48'],
    ['2001:db8:1:2ff:3:4:5:6', 56, '2001:db8:1:200::/56'],
    ['2001:db8:1:2:3:4:5:6', 128, '2001:db8:1:2:3:4:5:6/128'],
    ['203.0.113.7', 33, null],
    ['2001:db8::1', 129, null],
    ['203.0.113.7', 1.5, null],
    ['junk', 24, null],
  ];
  for (const [raw, bits, prefix] of rows) t.is(ipPrefix(raw, bits), prefix, `${raw}/${bits}`);
  t.deepEqual(ipGroups('::ffff:198.51.100.9'), { family: 4, exact: '198.51.100.9/32', weak: '198.51.100.0/24' });
  t.deepEqual(ipGroups('2001:db8:aa:bb:1::9'), { family: 6, exact: '2001:db8:aa:bb::/64', weak: '2001:db8:aa::/48' });
  t.is(ipGroups(undefined), null);
});

test('IP signals are off, with the reason, for non-public addresses and an untrusted proxy', (t) => {
  const trusted = { trustProxy: true, behindProxy: true };
  const direct = { trustProxy: false, behindProxy: false };
  t.is(ipSignalsOff('203.0.113.7', trusted), null);
  t.is(ipSignalsOff('203.0.113.7', direct), null);
  t.is(ipSignalsOff('2001:db8::1', direct), null);
  t.regex(ipSignalsOff('203.0.113.7', { trustProxy: false, behindProxy: true })!, /TRUST_PROXY off/);
  const rows: [string | null, RegExp][] = [
    ['127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::ffff:127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::1', /::1 is a loopback address/],
    ['10.0.0.5', /10\.0\.0\.5 is a private network address/],
    ['fd00::5', /private network address/],
    ['169.254.1.1', /link-local/],
    ['100.64.1.1', /carrier's NAT/],
    ['0.0.0.0', /unspecified/],
    [null, /no client address was recorded/],
    ['junk', /not an IP address/],
  ];
  for (const [ip, reason] of rows) t.regex(ipSignalsOff(ip, direct) ?? '', reason, String(ip));
});
