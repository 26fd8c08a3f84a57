// install_farm: many attributed installs of one creator from one address, on (nearly) one kind of device, in a
// short time: what a shelf of phones or an emulator farm looks like, not an audience.
//  - Strong: at least INSTALL_FARM_MIN_INSTALLS installs in one IPv4 address (/32) or one IPv6 subscriber network
//    (/64) within INSTALL_FARM_WINDOW_MINUTES, with at most one distinct device per INSTALL_FARM_INSTALLS_PER_DEVICE
//    installs (4 installs: one device model; 6: two).
//  - Weak: the same with at least INSTALL_FARM_WEAK_MIN_INSTALLS installs in the IPv4 /24 or IPv6 /48 around it.
//    Many unrelated subscribers share such a network, so the result carries `weak: true` and its evidence says so.
// A device is its brand and model when the SDK reported them, otherwise its other hints together (platform, OS
// version, screen, language, time zone). The window is the densest one containing the install under review.
// Off (and says so) when the install's address is not a public client address or the proxy is not trusted.
// False positives: carrier-grade NAT (a mobile carrier puts thousands of phones behind one public IPv4 address, and
// a popular model on one carrier is one "device"), a campus, office or event Wi-Fi after a creator's talk there, and
// a VPN exit. IPv6 /64s rarely hold more than one household, which is why IPv6 gives better evidence than IPv4.
import type { DeviceHints } from '../device.js';
import { ipGroups, parseIp } from '../ip-address.js';
import { addressWords, ipSignalsOff, type IpTrust } from './ip-trust.js';
import type { FraudSignal, SignalOff } from './types.js';
import { count, span, spelled } from './words.js';

export const INSTALL_FARM_WINDOW_MINUTES = 60;
export const INSTALL_FARM_MIN_INSTALLS = 4;
export const INSTALL_FARM_WEAK_MIN_INSTALLS = 10;
/** Low diversity: at most one distinct device per this many installs (rounded down, at least one device). */
export const INSTALL_FARM_INSTALLS_PER_DEVICE = 3;

export interface FarmInstall {
  /** Its id: the install under review may also be among the creator's installs; it is counted once. */
  id: string;
  ip: string | null;
  at: Date;
  device: DeviceHints & { brand?: string | null; model?: string | null };
}

export interface InstallFarmFacts {
  /** The attributed install behind the purchase under review. */
  install: FarmInstall;
  /** The same creator's attributed installs from at least INSTALL_FARM_WINDOW_MINUTES before to as long after it. */
  creatorInstalls: readonly FarmInstall[];
  trust: IpTrust;
}

const norm = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

function deviceKey(d: FarmInstall['device']): { key: string; byModel: boolean } {
  if (norm(d.model)) return { key: `${norm(d.brand)} ${norm(d.model)}`, byModel: true };
  return { key: [d.platform, d.osVersion, d.screen, d.language, d.timezone].map(norm).join('|'), byModel: false };
}

interface Window {
  members: FarmInstall[];
  devices: number;
  byModel: boolean;
}

/** The windows of INSTALL_FARM_WINDOW_MINUTES containing `at`, each starting at one member. */
function windowsAround(members: FarmInstall[], at: number): Window[] {
  const length = INSTALL_FARM_WINDOW_MINUTES * 60_000;
  const sorted = [...members].sort((a, b) => a.at.getTime() - b.at.getTime());
  return sorted
    .filter((start) => start.at.getTime() <= at && start.at.getTime() >= at - length)
    .map((start) => {
      const inside = sorted.filter((m) => m.at.getTime() >= start.at.getTime() && m.at.getTime() <= start.at.getTime() + length);
      const keys = inside.map((m) => deviceKey(m.device));
      return { members: inside, devices: new Set(keys.map((k) => k.key)).size, byModel: keys.every((k) => k.byModel) };
    });
}

function farmIn(members: FarmInstall[], at: number, min: number): Window | null {
  const lowDiversity = (w: Window) => w.devices <= Math.max(1, Math.floor(w.members.length / INSTALL_FARM_INSTALLS_PER_DEVICE));
  const found = windowsAround(members, at).filter((w) => w.members.length >= min && lowDiversity(w));
  return found.sort((a, b) => b.members.length - a.members.length)[0] ?? null;
}

function evidence(w: Window, where: string): string {
  const first = w.members[0]!.at.getTime();
  const last = w.members[w.members.length - 1]!.at.getTime();
  const devices = w.byModel ? spelled(w.devices, 'device model') : spelled(w.devices, 'kind of device', 'kinds of device');
  return `${count(w.members.length, 'install')} from ${where} with ${devices} in ${span(last - first)}`;
}

export function installFarm(f: InstallFarmFacts): FraudSignal | SignalOff | null {
  const off = ipSignalsOff(f.install.ip, f.trust);
  if (off) return { signal: 'install_farm', off };
  const groups = ipGroups(f.install.ip)!;
  const byId = new Map([f.install, ...f.creatorInstalls].map((i) => [i.id, i]));
  const usable = [...byId.values()].filter((i) => parseIp(i.ip)?.kind === 'public');
  const at = f.install.at.getTime();

  const exact = farmIn(
    usable.filter((i) => ipGroups(i.ip)?.exact === groups.exact),
    at,
    INSTALL_FARM_MIN_INSTALLS,
  );
  if (exact) {
    return { signal: 'install_farm', evidence: `${evidence(exact, addressWords(groups))}.` };
  }
  const weak = farmIn(
    usable.filter((i) => ipGroups(i.ip)?.weak === groups.weak),
    at,
    INSTALL_FARM_WEAK_MIN_INSTALLS,
  );
  if (!weak) return null;
  return {
    signal: 'install_farm',
    weak: true,
    evidence: `Weak evidence: ${evidence(weak, `the network ${groups.weak}`)}; many unrelated subscribers share a network this size.`,
  };
}
