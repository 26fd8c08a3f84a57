import test from 'ava';
import { credentialKind, generateToken, hashToken, parseBearer, tokenMatchesHash } from '../../lib/credentials.js';

const headers: [string, string | undefined, string | undefined][] = [
  ['standard', 'Bearer rc_webhook_abc', 'rc_webhook_abc'],
  ['lowercase scheme', 'bearer rc_webhook_abc', 'rc_webhook_abc'],
  ['bare token', 'rc_webhook_abc', 'rc_webhook_abc'],
  ['stray whitespace', '  Bearer   rc_webhook_abc  ', 'rc_webhook_abc'],
  ['uppercase scheme', 'BEARER tok', 'tok'],
  ['empty', '', undefined],
  ['missing', undefined, undefined],
  ['scheme only', 'Bearer ', undefined],
  ['two tokens', 'Bearer a b', undefined],
];

for (const [label, header, expected] of headers) {
  test(`parseBearer: ${label}`, (t) => {
    t.is(parseBearer(header), expected);
  });
}

test('credential kinds by prefix; agent keys are not mistaken for SDK keys', (t) => {
  t.is(credentialKind('it_mcp_xyz'), 'agent_key');
  t.is(credentialKind('it_xyz'), 'sdk_key');
  t.is(credentialKind('it_srv_xyz'), 'purchase_api_key');
  t.is(credentialKind('rc_webhook_xyz'), 'webhook_secret');
  t.is(credentialKind('ses_xyz'), 'session');
  t.is(credentialKind('eyJhbGciOi'), undefined);
});

test('generated tokens are unique, prefixed and verified against their stored hash', (t) => {
  const a = generateToken('it_mcp_');
  const b = generateToken('it_mcp_');
  t.not(a, b);
  t.true(a.startsWith('it_mcp_'));
  t.true(a.length >= 40);
  t.regex(hashToken(a), /^[0-9a-f]{64}$/);
  t.true(tokenMatchesHash(a, hashToken(a)));
  t.false(tokenMatchesHash(b, hashToken(a)));
  t.false(tokenMatchesHash(a, 'abcd'));
});
