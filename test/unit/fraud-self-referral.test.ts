// lib/fraud-signals/email.ts and self-referral.ts: the purchaser is the creator, by email (case, +tag, Gmail dots
// and googlemail.com) or by address and device hints (IPv4, IPv6 /64, mapped), within the window, off when the
// address cannot be read.
import test from 'ava';
import { normalizeEmail, sameMailbox } from '../../lib/fraud-signals/email.js';
import {
  SELF_REFERRAL_SIGHTING_WINDOW_DAYS,
  selfReferral,
  type CreatorSighting,
  type SelfReferralFacts,
} from '../../lib/fraud-signals/self-referral.js';

test('email normalisation: case, +tag, Gmail dots and googlemail.com; dots kept elsewhere; malformed is null', (t) => {
  const rows: [string | null, string | null][] = [
    ['Jane@Example.com', 'jane@example.com'],
    ['  jane@example.com ', 'jane@example.com'],
    ['jane+promo@example.com', 'jane@example.com'],
    ['jane+a+b@example.com', 'jane@example.com'],
    ['j.a.n.e@example.com', 'j.a.n.e@example.com'],
    ['J.a.N.e+x@Gmail.com', 'jane@gmail.com'],
    ['jane.doe@googlemail.com', 'janedoe@gmail.com'],
    ['jane@gmail.com.', 'jane@gmail.com'],
    ['+only@example.com', null],
    ['no-at-sign', null],
    ['@example.com', null],
    ['jane@', null],
    ['ja ne@example.com', null],
    ['', null],
    [null, null],
  ];
  for (const [raw, normal] of rows) t.is(normalizeEmail(raw), normal, String(raw));
  t.true(sameMailbox('Jane.Doe+promo@googlemail.com', 'janedoe@gmail.com'));
  t.false(sameMailbox('jane.doe@example.com', 'janedoe@example.com'));
  t.false(sameMailbox(null, null));
});

const NOW = new Date('2026-11-20T12:00:00Z');
const PHONE = { platform: 'ios' as const, osVersion: '17.4', language: 'en' };
const direct = { trustProxy: false, behindProxy: false };
const sighting = (over: Partial<CreatorSighting> = {}): CreatorSighting => ({
  source: 'portal_sign_in',
  ip: '203.0.113.7',
  at: new Date(NOW.getTime() - 2 * 86_400_000),
  hints: { platform: 'ios', osVersion: '17.4.1' },
  ...over,
});
const facts = (over: Partial<SelfReferralFacts> = {}): SelfReferralFacts => ({
  creatorEmail: 'creator@example.com',
  purchaserEmails: [],
  install: { ip: '203.0.113.7', at: NOW, hints: PHONE },
  sightings: [],
  trust: direct,
  ...over,
});

test('email half: the $email attribute or the identified user email, normalised; a creator without email has none', (t) => {
  const hit = selfReferral(
    facts({ install: null, purchaserEmails: [{ source: 'provider_email_attribute', email: 'Creator+x@Example.com' }] }),
  );
  t.deepEqual(hit, {
    signal: 'self_referral',
    evidence:
      "The purchaser's email (the subscription provider's $email attribute) is the creator's own address, " +
      'compared without case, +tags and Gmail dots.',
  });
  const identified = selfReferral(
    facts({
      creatorEmail: 'jane.doe@gmail.com',
      purchaserEmails: [
        { source: 'provider_email_attribute', email: 'someone@else.com' },
        { source: 'identified_user', email: 'janedoe+app@googlemail.com' },
      ],
    }),
  );
  t.regex((identified as { evidence: string }).evidence, /identified user's email/);
  t.is(selfReferral(facts({ install: null, purchaserEmails: [{ source: 'identified_user', email: 'other@example.com' }] })), null);
  t.is(selfReferral(facts({ creatorEmail: null, install: null, purchaserEmails: [{ source: 'identified_user', email: null }] })), null);
  // The email half needs no address: it is raised even where the IP half is off.
  const behindUntrusted = facts({
    trust: { trustProxy: false, behindProxy: true },
    purchaserEmails: [{ source: 'identified_user', email: 'creator@example.com' }],
  });
  t.is(selfReferral(behindUntrusted)?.signal, 'self_referral');
  t.true('evidence' in selfReferral(behindUntrusted)!);
});

test('address half: same IPv4 (also written mapped) or IPv6 /64, two agreeing hints, within the window', (t) => {
  const raised = selfReferral(facts({ sightings: [sighting()] }));
  t.deepEqual(raised, {
    signal: 'self_referral',
    evidence:
      'The attributed install came from 203.0.113.7, where the creator signed in to the creator portal 2 days before ' +
      'the install, with the same platform and OS version.',
  });
  t.regex(
    (
      selfReferral(
        facts({ sightings: [sighting({ ip: '::ffff:203.0.113.7', source: 'join', at: new Date(NOW.getTime() + 3_600_000) })] }),
      ) as {
        evidence: string;
      }
    ).evidence,
    /from 203\.0\.113\.7, where the creator joined the campaign 60 minutes after the install/,
  );
  const v6 = facts({
    install: { ip: '2001:db8:5:6:aaaa::1', at: NOW, hints: PHONE },
    sightings: [sighting({ ip: '2001:db8:5:6:bbbb::2' })],
  });
  t.regex((selfReferral(v6) as { evidence: string }).evidence, /the IPv6 network 2001:db8:5:6::\/64/);
  const rows: [string, CreatorSighting][] = [
    ['another address', sighting({ ip: '203.0.113.8' })],
    ['another IPv6 /64', sighting({ ip: '2001:db8:5:7::1' })],
    ['a desktop browser (platform differs)', sighting({ hints: { platform: 'web' } })],
    ['another OS version', sighting({ hints: { platform: 'ios', osVersion: '16.2' } })],
    ['only one shared hint', sighting({ hints: { platform: 'ios' } })],
    ['just outside the window', sighting({ at: new Date(NOW.getTime() - (SELF_REFERRAL_SIGHTING_WINDOW_DAYS * 86_400_000 + 1)) })],
  ];
  for (const [label, s] of rows) t.is(selfReferral(facts({ sightings: [s] })), null, label);
  const edge = sighting({ at: new Date(NOW.getTime() - SELF_REFERRAL_SIGHTING_WINDOW_DAYS * 86_400_000) });
  t.is(selfReferral(facts({ sightings: [edge] }))?.signal, 'self_referral', 'exactly at the window edge');
});

test('address half is off, saying why, when the install address is private, loopback or the proxy untrusted', (t) => {
  const rows: [string, Partial<SelfReferralFacts>, RegExp][] = [
    ['loopback', { install: { ip: '127.0.0.1', at: NOW, hints: PHONE } }, /loopback/],
    ['mapped loopback', { install: { ip: '::ffff:127.0.0.1', at: NOW, hints: PHONE } }, /loopback/],
    ['private', { install: { ip: '192.168.0.10', at: NOW, hints: PHONE } }, /private/],
    ['untrusted proxy', { trust: { trustProxy: false, behindProxy: true } }, /TRUST_PROXY off/],
  ];
  for (const [label, over, reason] of rows) {
    const out = selfReferral(facts({ ...over, sightings: [sighting({ ip: over.install?.ip ?? '203.0.113.7' })] }));
    t.is(out?.signal, 'self_referral', label);
    t.regex((out as { off: string }).off, reason, label);
  }
});
