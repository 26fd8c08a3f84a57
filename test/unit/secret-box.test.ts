import test from 'ava';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../lib/secret-box.js';

const box = new SecretBox(randomBytes(32).toString('base64'));

test('seals and opens; each seal uses a fresh IV', (t) => {
  const a = box.seal('sk_live_secret', 'app_1:subprovider');
  const b = box.seal('sk_live_secret', 'app_1:subprovider');
  t.notDeepEqual(a.iv, b.iv);
  t.false(a.ciphertext.toString('utf8').includes('sk_live_secret'));
  t.is(box.open(a, 'app_1:subprovider'), 'sk_live_secret');
});

test('tampering, another key or other associated data are refused', (t) => {
  const sealed = box.seal('secret', 'app_1:ios');
  const flipped = Buffer.from(sealed.ciphertext);
  flipped[0]! ^= 1;
  t.throws(() => box.open({ ...sealed, ciphertext: flipped }, 'app_1:ios'));
  t.throws(() => box.open(sealed, 'app_2:ios'));
  t.throws(() => new SecretBox(randomBytes(32).toString('hex')).open(sealed, 'app_1:ios'));
});

test('the master key must be 32 bytes (base64 or hex)', (t) => {
  t.notThrows(() => new SecretBox(randomBytes(32).toString('hex')));
  t.throws(() => new SecretBox('too-short'), { message: /32 bytes/ });
});
