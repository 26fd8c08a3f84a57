// The one I/O-free module both the server's event dedup (lib/event-dedup.ts) and the SDK's derived event ids
// (rule 5) use, pinned by golden vectors: a change to the canonical JSON or the hash would silently split the
// server's stored keys from what clients derive. The SDK's own SHA-256 is checked against node:crypto and FIPS
// 180-4's examples.
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { accountToken, derivedEventId } from '@svc/sdk';
import * as built from '@svc/sdk/event-key';
import * as server from '../../lib/event-dedup.js';
// The source beside the build: both must answer the golden vectors (the one import of packages/sdk/src outside it).
// eslint-disable-next-line no-restricted-imports
import * as source from '../../packages/sdk/src/event-key.js';

const PROPS = { plan: 'annual', nested: { b: [1, { z: null, a: 'é' }], a: true }, trial_days: 7 };

test('the server imports the SDK module itself, not a copy', (t) => {
  t.is(server.canonicalJson, built.canonicalJson);
  t.is(server.singletonKey, built.singletonKey);
  t.is(server.contentHash, built.contentHash);
  t.deepEqual([...server.SINGLETON_EVENT_TYPES].sort(), ['subscription_purchased', 'subscription_renewed', 'trial_started']);
});

test('golden vectors: canonical JSON, singleton keys, content hashes, derived event ids, account tokens', (t) => {
  for (const m of [source, built]) {
    t.is(m.canonicalJson(PROPS), '{"nested":{"a":true,"b":[1,{"a":"é","z":null}]},"plan":"annual","trial_days":7}');
    t.is(m.canonicalJson(undefined), 'null');
    t.is(
      m.singletonKey({ eventType: 'trial_started', appUserId: 'user-1', properties: PROPS }),
      'f24c278ebfe7ca6ba3b30f6df2d384cbe5f3bfda83f6862aa6ae9d108fb54375',
    );
    t.is(
      m.singletonKey({ eventType: 'subscription_renewed', appUserId: 'ü-2', properties: {} }),
      '2e1776bf45db78fad54809adc2fbe6ff3697b38e6fffe59c5ad5ba55c7da9ec8',
    );
    t.is(m.singletonKey({ eventType: 'paywall_viewed', appUserId: 'user-1', properties: {} }), null);
    t.is(
      m.contentHash({ eventType: 'paywall_viewed', appUserId: 'user-1', properties: PROPS, referralCode: 'ABCD' }),
      '9eaa42b58479f78e4b5644d51d7577c730e37893c60d48185c1182d4e1657c42',
    );
    t.is(
      m.contentHash({ eventType: 'paywall_viewed', appUserId: 'user-1', properties: {}, referralCode: null }),
      '0688d49215430e67e504af27d5ff9483bfa52afa64a9cf840ca9e61f1c417010',
    );
  }
  t.is(derivedEventId('trial_started', 'user-1', PROPS), 'f24c278e-bfe7-4a6b-a3b3-0f6df2d384cb');
  t.is(
    derivedEventId('trial_started', 'user-1', { trial_days: 7, plan: 'annual', nested: { a: true, b: [1, { a: 'é', z: null }] } }),
    'f24c278e-bfe7-4a6b-a3b3-0f6df2d384cb',
  );
  t.is(derivedEventId('paywall_viewed', 'user-1', PROPS), null);
  t.is(accountToken('user-1'), 'c6c289e4-9e9c-55b2-9458-60387b73bcb1');
  t.is(accountToken('😀'), 'f0443a34-2c5e-5547-83a1-11b51ba56c93');
});

test('the keys are what the server stored before the move (node:crypto over the same canonical JSON)', (t) => {
  const old = (parts: unknown[]) => createHash('sha256').update(source.canonicalJson(parts)).digest('hex');
  const e = {
    eventType: 'subscription_purchased',
    appUserId: 'ナ-9',
    properties: { price: 9.99, tags: ['a', 'b'] },
    referralCode: 'INFLU-X',
  };
  t.is(source.singletonKey(e), old(['singleton', e.eventType, e.appUserId, e.properties]));
  t.is(source.contentHash(e), old(['content', e.eventType, e.appUserId, e.properties, e.referralCode]));
});

test('SHA-256: FIPS 180-4 examples and 500 random strings agree with node:crypto', (t) => {
  t.is(source.sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  t.is(source.sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  t.is(
    source.sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
  t.is(source.sha256Hex('a'.repeat(1_000_000)), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  const alphabet = ['a', 'é', '€', '😀', '\n', '\ud800', 'Z'];
  for (let i = 0; i < 500; i += 1) {
    const s = Array.from(randomBytes(i % 130), (b) => alphabet[b % alphabet.length]).join('');
    t.is(source.sha256Hex(s), createHash('sha256').update(s).digest('hex'), JSON.stringify(s));
  }
});
