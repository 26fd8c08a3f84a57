// click_injection (Android only): a click sent for an install that was already under way. Malware on the phone
// sees an app being installed and fires a referral click just in time to be credited. Google Play's Install
// Referrer API reports when the install began, which track-install carries; against it:
//  - our click, recorded by our server, later than the install began (by more than the clock skew allowed:
//    CLICK_INJECTION_SERVER_SKEW_SECONDS against Play's server-side install-begin time, else
//    CLICK_INJECTION_DEVICE_SKEW_SECONDS against the phone's clock): a click cannot follow the install it caused;
//  - the referrer's own click time (the phone's clock, like the install-begin time) less than
//    CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS before the install began: faster than a person opens the store
//    page and taps Install.
// iOS has no such signal: the App Store tells an app nothing about when its install began, so an iOS install is
// off and says so, as is an Android install whose referrer reported no install-begin time (0 means unknown).
// False positives: a phone whose clock is far off (the skew allowances), and a store page already open when the
// link was tapped (under the minimum only in rare cases).
import type { Platform } from '../../schema/types.js';
import type { FraudSignal, SignalOff } from './types.js';
import { seconds } from './words.js';

export const CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS = 10;
export const CLICK_INJECTION_SERVER_SKEW_SECONDS = 10;
export const CLICK_INJECTION_DEVICE_SKEW_SECONDS = 120;

export interface ClickInjectionFacts {
  platform: Platform | null;
  /** The Play Install Referrer's values as track-install carried them (seconds since the epoch; 0: unknown). */
  referrer: {
    referrerClickTimestampSeconds?: number | null;
    installBeginTimestampSeconds?: number | null;
    installBeginTimestampServerSeconds?: number | null;
  } | null;
  /** When our server recorded the click the install is attributed to; null when it came without one. */
  clickAt: Date | null;
}

const known = (s: number | null | undefined): s is number => typeof s === 'number' && Number.isFinite(s) && s > 0;

export function clickInjection(f: ClickInjectionFacts): FraudSignal | SignalOff | null {
  if (f.platform !== 'android') {
    return { signal: 'click_injection', off: 'Click injection is read on Android only; iOS reports no install-begin time.' };
  }
  const r = f.referrer ?? {};
  const serverBegin = known(r.installBeginTimestampServerSeconds) ? r.installBeginTimestampServerSeconds : null;
  const deviceBegin = known(r.installBeginTimestampSeconds) ? r.installBeginTimestampSeconds : null;
  if (serverBegin === null && deviceBegin === null) {
    return { signal: 'click_injection', off: 'The Play Install Referrer reported no install-begin time with this install.' };
  }
  if (f.clickAt) {
    const click = f.clickAt.getTime() / 1000;
    const [begin, skew] =
      serverBegin !== null ? [serverBegin, CLICK_INJECTION_SERVER_SKEW_SECONDS] : [deviceBegin!, CLICK_INJECTION_DEVICE_SKEW_SECONDS];
    if (click - begin > skew) {
      return {
        signal: 'click_injection',
        evidence: `The referral click was recorded ${seconds(click - begin)} after Google Play had begun the install.`,
      };
    }
  }
  if (deviceBegin !== null && known(r.referrerClickTimestampSeconds)) {
    const gap = deviceBegin - r.referrerClickTimestampSeconds;
    if (gap < CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS) {
      const how = gap < 0 ? `${seconds(-gap)} after` : `only ${seconds(gap)} before`;
      return {
        signal: 'click_injection',
        evidence:
          `The Play Install Referrer's click came ${how} the install began ` +
          `(under ${CLICK_INJECTION_MIN_CLICK_TO_INSTALL_SECONDS} seconds is faster than a person).`,
      };
    }
  }
  return null;
}
