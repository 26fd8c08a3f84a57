// Rule 13's string work: the launch URL's svc_code / svc_click, the cleaned URL (only those two parameters go; the
// rest and the hash stay) and the Android install-referrer string, where "(not set)" is no code.
import test from 'ava';
import { cleanLaunchUrl, parseInstallReferrer, parseLaunchUrl } from '@svc/sdk/web';

test('a launch URL carries a code and a click id; codes come back trimmed and uppercased', (t) => {
  t.deepEqual(parseLaunchUrl('https://app.test/p?utm=ig&svc_code=%20abcd%20&svc_click=clk_1#x'), { code: 'ABCD', clickId: 'clk_1' });
  t.deepEqual(parseLaunchUrl('https://app.test/?svc_code=ABCD'), { code: 'ABCD', clickId: null });
  t.is(parseLaunchUrl('https://app.test/?utm=1'), null);
  t.is(parseLaunchUrl('https://app.test/?svc_code='), null);
  t.deepEqual(parseLaunchUrl('https://play.test/store?id=x&referrer=svc_code%3DWXYZ%26svc_click%3Dc9'), { code: 'WXYZ', clickId: 'c9' });
});

test('cleanUrl removes only svc_code and svc_click, keeping the other parameters verbatim and the hash', (t) => {
  t.is(cleanLaunchUrl('https://app.test/p?utm=ig&svc_code=ABCD&x=a%20b&svc_click=clk#top'), 'https://app.test/p?utm=ig&x=a%20b#top');
  t.is(cleanLaunchUrl('https://app.test/p?svc_code=ABCD&svc_click=clk'), 'https://app.test/p');
  t.is(cleanLaunchUrl('https://app.test/p#h?svc_code=ABCD'), 'https://app.test/p#h?svc_code=ABCD', 'a hash is not the query');
  t.is(cleanLaunchUrl('https://app.test/p?svc_codex=1'), 'https://app.test/p?svc_codex=1');
});

test('the install-referrer string, plain or URL-encoded; "(not set)" is no code', (t) => {
  t.deepEqual(parseInstallReferrer('utm_source=google-play&svc_code=abcd&svc_click=clk_2'), { code: 'ABCD', clickId: 'clk_2' });
  t.deepEqual(parseInstallReferrer('svc_code%3DABCD%26svc_click%3D(not%20set)'), { code: 'ABCD', clickId: null });
  t.is(parseInstallReferrer('utm_source=(not set)&utm_medium=(not set)'), null);
  t.is(parseInstallReferrer('svc_code=(not%20set)'), null);
  t.is(parseInstallReferrer(''), null);
  t.is(parseInstallReferrer(undefined), null);
});
