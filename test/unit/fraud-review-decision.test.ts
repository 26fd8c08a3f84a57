// lib/fraud-signals/decide.ts: what raised signals do to a commission under a campaign's settings (defaults:
// self_referral holds, the others flag), weak evidence never holding, signals merged once; and
// actions/purchase-event/signals.ts's outcomesOf over facts as db/fraud-facts.ts returns them; a void in the creator's digest.
import test from 'ava';
import { outcomesOf } from '../../actions/purchase-event/signals.js';
import type { FraudFactsRow, InstallFacts } from '../../db/fraud-facts.js';
import { composeDigest } from '../../lib/creator-digest.js';
import {
  allSignalsOff,
  decideReview,
  FRAUD_SIGNALS,
  isRaised,
  mergeSignals,
  signalActionsOf,
  type FraudSignal,
  type SignalOutcome,
} from '../../lib/fraud-signals/index.js';

const self: FraudSignal = { signal: 'self_referral', evidence: 'email' };
const farm: FraudSignal = { signal: 'install_farm', evidence: '4 installs' };
const weakFarm: FraudSignal = { signal: 'install_farm', evidence: 'Weak evidence: 10 installs', weak: true };
const leak: FraudSignal = { signal: 'leaked_code', evidence: 'leak' };
const off: SignalOutcome = { signal: 'click_injection', off: 'iOS' };

const rows: [string, SignalOutcome[], Record<string, string>, ReturnType<typeof decideReview>][] = [
  ['nothing raised', [null, off], {}, null],
  ['self-referral holds by default', [self], {}, { action: 'hold', signals: [self] }],
  ['install farm flags by default', [farm, off], {}, { action: 'flag', signals: [farm] }],
  ['a campaign holds on install farm', [farm], { install_farm: 'hold' }, { action: 'hold', signals: [farm] }],
  ['weak evidence never holds', [weakFarm], { install_farm: 'hold' }, { action: 'flag', signals: [weakFarm] }],
  ['a signal set off is dropped', [self, leak], { self_referral: 'off' }, { action: 'flag', signals: [leak] }],
  ['all set off: no review', [leak], { leaked_code: 'off' }, null],
  ['self-referral set to flag', [self], { self_referral: 'flag' }, { action: 'flag', signals: [self] }],
  ['one hold among flags holds', [leak, self], {}, { action: 'hold', signals: [leak, self] }],
];
for (const [name, outcomes, settings, expected] of rows) {
  test(`decideReview: ${name}`, (t) => {
    t.deepEqual(decideReview(outcomes, signalActionsOf(settings)), expected);
  });
}

test('allSignalsOff: only when every signal is set off (the defaults are on)', (t) => {
  const off = Object.fromEntries(FRAUD_SIGNALS.map((s) => [s, 'off']));
  t.true(allSignalsOff(signalActionsOf(off)));
  t.false(allSignalsOff(signalActionsOf({ ...off, leaked_code: 'flag' })));
  t.false(allSignalsOff(signalActionsOf({ self_referral: 'off' })));
});

test('signalActionsOf ignores unknown signals and actions (the default applies)', (t) => {
  t.deepEqual(signalActionsOf({ self_referral: 'flag', install_farm: 'block', made_up: 'hold' }), { self_referral: 'flag' });
  t.deepEqual(signalActionsOf(null), {});
  t.deepEqual(signalActionsOf('hold'), {});
});

test('mergeSignals adds a new signal once and keeps the first evidence of one seen', (t) => {
  t.deepEqual(mergeSignals([self], [{ ...self, evidence: 'again' }, leak]), [self, leak]);
  t.deepEqual(mergeSignals([self, leak], [leak]), [self, leak]);
});

const install = (over: Partial<InstallFacts> = {}): InstallFacts => ({
  id: 'ins_1',
  ip: '203.0.113.7',
  at: '2026-11-01T10:00:00Z',
  platform: 'android',
  os_version: '14',
  language: 'en',
  timezone: 'UTC',
  screen: null,
  brand: 'Acme',
  model: 'Farm 1',
  referrer_click_at: null,
  install_begin_at: null,
  install_begin_server_at: null,
  ip_via_untrusted_proxy: false,
  ...over,
});
const facts = (over: Partial<FraudFactsRow> = {}): FraudFactsRow => ({
  creator_email: 'Jane.Doe@gmail.com',
  identified_emails: [],
  install: null,
  click_at: null,
  sightings: [],
  creator_installs: [],
  creator_refunds: { purchases: 0, refunds: 0 },
  app_refunds: null,
  redemptions: [],
  ...over,
});
const at = new Date('2026-11-01T12:00:00Z');
const raised = (o: SignalOutcome[]) => o.filter(isRaised).map((s) => s.signal);

test('outcomesOf: the provider email and the identified email both reach self-referral', (t) => {
  t.deepEqual(raised(outcomesOf(facts(), { providerEmail: 'janedoe+yt@gmail.com', at })), ['self_referral']);
  t.deepEqual(raised(outcomesOf(facts({ identified_emails: ['jane.doe@googlemail.com'] }), { providerEmail: null, at })), [
    'self_referral',
  ]);
  t.deepEqual(raised(outcomesOf(facts(), { providerEmail: 'someone@gmail.com', at })), []);
});

test('outcomesOf: an install through an untrusted proxy turns the IP signals off, and says so', (t) => {
  const farmInstalls = [0, 1, 2, 3].map((i) => install({ id: `ins_${i}`, at: `2026-11-01T10:0${i}:00Z` }));
  const trusted = outcomesOf(facts({ install: farmInstalls[0]!, creator_installs: farmInstalls }), { providerEmail: null, at });
  t.deepEqual(raised(trusted), ['install_farm']);
  const proxied = outcomesOf(facts({ install: { ...farmInstalls[0]!, ip_via_untrusted_proxy: true }, creator_installs: farmInstalls }), {
    providerEmail: null,
    at,
  });
  t.deepEqual(raised(proxied), []);
  t.true(proxied.some((o) => o !== null && 'off' in o && o.signal === 'install_farm' && /TRUST_PROXY off/.test(o.off)));
});

test('outcomesOf: Play Install Referrer times stored on the install reach click injection', (t) => {
  const begin = '2026-11-01T10:00:00Z';
  const o = outcomesOf(facts({ install: install({ install_begin_server_at: begin }), click_at: '2026-11-01T10:02:00Z' }), {
    providerEmail: null,
    at,
  });
  t.deepEqual(raised(o), ['click_injection']);
});

test("a voided commission in the creator's digest: the neutral words, never the rule", (t) => {
  const mail = composeDigest(
    'Jane',
    [
      {
        id: 'cdi_1',
        kind: 'commission_not_confirmed',
        amount_micros: 3_000_000,
        created_at: new Date('2026-11-29T10:00:00Z'),
        org_name: 'Acme',
        payout_id: null,
        campaign_id: 'cmp_1',
        campaign_name: 'Launch',
        product_id: 'pro_monthly',
      },
    ],
    { portal: 'https://svc.example/creator', unsubscribe: 'https://svc.example/u' },
  );
  t.is(mail.subject, 'Your earnings: 1 commission not confirmed');
  t.regex(
    mail.body,
    /Commissions not confirmed:\n- \$3\.00 USD for pro_monthly in Launch \(Acme\): This commission was not confirmed after review/,
  );
  t.notRegex(mail.body, /self|referral|fraud|signal|install|refund/i);
});
