// lib/fraud-signals/install-farm.ts: installs of one creator from one IPv4 /32 or IPv6 /64 with low device
// diversity within the window; /24 and /48 as weak evidence; off for private/loopback addresses and an untrusted proxy.
import test from 'ava';
import {
  INSTALL_FARM_MIN_INSTALLS,
  INSTALL_FARM_WEAK_MIN_INSTALLS,
  INSTALL_FARM_WINDOW_MINUTES,
  installFarm,
  type FarmInstall,
} from '../../lib/fraud-signals/install-farm.js';

const T0 = new Date('2026-11-20T12:00:00Z').getTime();
const direct = { trustProxy: false, behindProxy: false };
let seq = 0;
const inst = (ip: string | null, minute: number, model = 'Pixel 8'): FarmInstall => ({
  id: `i${++seq}`,
  ip,
  at: new Date(T0 + minute * 60_000),
  device: { platform: 'android', brand: 'Google', model, osVersion: '14' },
});
/** The install under review is the last of the list; the creator's installs are all of them (it counted once). */
const run = (installs: FarmInstall[], trust = direct) =>
  installFarm({ install: installs[installs.length - 1]!, creatorInstalls: installs, trust });

test('the issue example: 4 installs from one IPv4 address with one device model in 12 minutes', (t) => {
  const out = run([inst('203.0.113.7', 0), inst('203.0.113.7', 4), inst('::ffff:203.0.113.7', 9), inst('203.0.113.7', 12)]);
  t.deepEqual(out, { signal: 'install_farm', evidence: '4 installs from 203.0.113.7 with one device model in 12 minutes.' });
});

test('threshold and window edges: one install fewer, or the first just outside the window, is no signal', (t) => {
  const atMin = (n: number, span: number) => Array.from({ length: n }, (_, i) => inst('198.51.100.4', (i * span) / (n - 1)));
  t.truthy(run(atMin(INSTALL_FARM_MIN_INSTALLS, INSTALL_FARM_WINDOW_MINUTES)), 'exactly the minimum across exactly the window');
  t.is(run(atMin(INSTALL_FARM_MIN_INSTALLS - 1, 10)), null, 'one fewer than the minimum');
  t.is(run(atMin(INSTALL_FARM_MIN_INSTALLS, INSTALL_FARM_WINDOW_MINUTES + 0.01)), null, 'spread just wider than the window');
  // The install under review outside the dense window: the burst is another day's matter.
  const burst = [inst('198.51.100.5', 0), inst('198.51.100.5', 1), inst('198.51.100.5', 2), inst('198.51.100.5', 3)];
  t.is(installFarm({ install: inst('198.51.100.5', 200), creatorInstalls: burst, trust: direct }), null);
  t.truthy(installFarm({ install: burst[1]!, creatorInstalls: burst, trust: direct }), 'a member of the burst');
});

test('diversity: at most one device per three installs; more models is an audience, not a farm', (t) => {
  const ip = '198.51.100.20';
  t.is(run([inst(ip, 0, 'A'), inst(ip, 1, 'B'), inst(ip, 2, 'A'), inst(ip, 3, 'A')]), null, '4 installs, two models');
  const six = [inst(ip, 0, 'A'), inst(ip, 1, 'B'), inst(ip, 2, 'A'), inst(ip, 3, 'B'), inst(ip, 4, 'A'), inst(ip, 5, 'B')];
  t.regex((run(six) as { evidence: string }).evidence, /^6 installs from 198\.51\.100\.20 with two device models in 5 minutes\.$/);
  t.is(run([...six.slice(0, 5), inst(ip, 5, 'C')]), null, '6 installs, three models');
  // Without a model the other hints tell devices apart.
  const bare = (m: number, screen: string): FarmInstall => ({
    id: `b${++seq}`,
    ip,
    at: new Date(T0 + m * 60_000),
    device: { platform: 'ios', osVersion: '17.4', screen },
  });
  t.regex(
    (run([bare(0, '1179x2556'), bare(1, '1179x2556'), bare(2, '1179x2556'), bare(3, '1179x2556')]) as { evidence: string }).evidence,
    /one kind of device/,
  );
  t.is(run([bare(0, 'a'), bare(1, 'b'), bare(2, 'c'), bare(3, 'd')]), null);
});

test('IPv6: one /64 is one subscriber; another /64 is another', (t) => {
  const out = run([inst('2001:db8:1:2::1', 0), inst('2001:db8:1:2::2', 1), inst('2001:db8:1:2:a::3', 2), inst('2001:DB8:1:2::4', 3)]);
  t.deepEqual(out, {
    signal: 'install_farm',
    evidence: '4 installs from the IPv6 network 2001:db8:1:2::/64 with one device model in 3 minutes.',
  });
  t.is(run([inst('2001:db8:1:2::1', 0), inst('2001:db8:1:3::2', 1), inst('2001:db8:1:4::3', 2), inst('2001:db8:1:5::4', 3)]), null);
});

test('weak evidence: /24 and /48 only from their own, higher minimum, marked weak', (t) => {
  const v4 = Array.from({ length: INSTALL_FARM_WEAK_MIN_INSTALLS }, (_, i) => inst(`203.0.113.${10 + i}`, i * 3));
  const out = run(v4);
  t.is(out?.signal, 'install_farm');
  t.true((out as { weak?: true }).weak);
  t.is(
    (out as { evidence: string }).evidence,
    'Weak evidence: 10 installs from the network 203.0.113.0/24 with one device model in 27 minutes; ' +
      'many unrelated subscribers share a network this size.',
  );
  t.is(run(v4.slice(1)), null, 'one fewer than the weak minimum');
  const v6 = Array.from({ length: INSTALL_FARM_WEAK_MIN_INSTALLS }, (_, i) => inst(`2001:db8:7:${i}::1`, i));
  t.regex((run(v6) as { evidence: string }).evidence, /^Weak evidence: 10 installs from the network 2001:db8:7::\/48/);
});

test('off, with the reason, for private or loopback addresses and behind an untrusted proxy; unusable neighbours ignored', (t) => {
  const rows: [string, RegExp][] = [
    ['10.0.0.1', /private network address/],
    ['127.0.0.1', /loopback/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::1', /loopback/],
  ];
  for (const [ip, reason] of rows) {
    const out = run([inst(ip, 0), inst(ip, 1), inst(ip, 2), inst(ip, 3)]);
    t.is(out?.signal, 'install_farm', ip);
    t.regex((out as { off: string }).off, reason, ip);
  }
  const untrusted = run([inst('203.0.113.9', 0), inst('203.0.113.9', 1), inst('203.0.113.9', 2), inst('203.0.113.9', 3)], {
    trustProxy: false,
    behindProxy: true,
  });
  t.regex((untrusted as { off: string }).off, /TRUST_PROXY off/);
  t.is(run([inst(null, 0), inst('garbage', 1), inst('10.0.0.1', 2), inst('203.0.113.9', 3)]), null);
});
