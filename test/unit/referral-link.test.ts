// lib/referral-link.ts and api/view-kit/html.tsx: where a link visitor goes, what the click keeps, how pages escape.
import test from 'ava';
import { jsonForHtml, renderPage, safeUrl } from '../../api/view-kit/html.js';
import { destinationUrl, linkHints, withReferralParams, type LinkApp } from '../../lib/referral-link.js';
import { ANDROID_UA, IPHONE_UA } from '../helpers/sdk.js';

const full: LinkApp = {
  ios_store_url: 'https://apps.apple.com/app/id1',
  android_store_url: 'https://play.google.com/store/apps/details?id=a.b',
  web_url: 'https://example.com/app',
};

const destinations: { label: string; app: LinkApp; platform: 'ios' | 'android' | 'web' | null; expected: string | undefined }[] = [
  { label: 'ios goes to the App Store', app: full, platform: 'ios', expected: full.ios_store_url! },
  { label: 'android goes to Google Play', app: full, platform: 'android', expected: full.android_store_url! },
  { label: 'web goes to the web URL', app: full, platform: 'web', expected: full.web_url! },
  { label: 'unknown platform goes to the web URL', app: full, platform: null, expected: full.web_url! },
  {
    label: 'android without a Play URL falls back to web first',
    app: { ...full, android_store_url: null },
    platform: 'android',
    expected: full.web_url!,
  },
  {
    label: 'web without a web URL falls back to the App Store',
    app: { ...full, web_url: null },
    platform: 'web',
    expected: full.ios_store_url!,
  },
  {
    label: 'a non-http URL is never a destination',
    app: { ios_store_url: 'javascript:alert(1)', android_store_url: null, web_url: null },
    platform: 'ios',
    expected: undefined,
  },
  { label: 'no URL at all', app: { ios_store_url: null, android_store_url: null, web_url: null }, platform: 'ios', expected: undefined },
];

for (const { label, app, platform, expected } of destinations) {
  test(`destinationUrl: ${label}`, (t) => {
    t.is(destinationUrl(app, platform)?.toString(), expected);
  });
}

test('withReferralParams keeps the URL own query and adds svc_code and svc_click', (t) => {
  const url = new URL(withReferralParams(new URL('https://example.com/app?utm_source=x#top'), { svc_code: 'ANNA', svc_click: 'clk_1' }));
  t.is(url.searchParams.get('utm_source'), 'x');
  t.is(url.searchParams.get('svc_code'), 'ANNA');
  t.is(url.searchParams.get('svc_click'), 'clk_1');
  t.is(url.hash, '#top');
  t.false(url.searchParams.has('referrer'));
});

test('withReferralParams puts the code into Google Play referrer, merged with an existing one', (t) => {
  const out = withReferralParams(new URL('https://play.google.com/store/apps/details?id=a.b&referrer=utm_source%3Dyt'), {
    svc_code: 'ANNA',
    svc_click: 'clk_1',
  });
  const url = new URL(out);
  t.is(url.searchParams.get('id'), 'a.b');
  const referrer = new URLSearchParams(url.searchParams.get('referrer')!);
  t.is(referrer.get('utm_source'), 'yt');
  t.is(referrer.get('svc_code'), 'ANNA');
  t.is(referrer.get('svc_click'), 'clk_1');
  t.true(out.includes('svc_code%3DANNA'));
});

test('withReferralParams without params leaves the URL alone', (t) => {
  t.is(
    withReferralParams(new URL('https://play.google.com/store/apps/details?id=a.b'), {}),
    'https://play.google.com/store/apps/details?id=a.b',
  );
});

test('linkHints: the User-Agent gives platform and OS version', (t) => {
  t.like(linkHints({}, IPHONE_UA), { platform: 'ios', osVersion: '17.4', language: null });
  t.like(linkHints({}, ANDROID_UA), { platform: 'android', osVersion: '14' });
  t.like(linkHints({}, undefined), { platform: null, osVersion: null });
});

test('linkHints: query hints win, a foreign UA OS version is dropped, svc_* stays out of the raw hints', (t) => {
  const hints = linkHints(
    { platform: 'Android', lang: 'de-DE', tz: 'Europe/Berlin', screen: '1080x2400', svc_code: 'X', utm_source: ['a', 'b'] },
    IPHONE_UA,
  );
  t.like(hints, { platform: 'android', osVersion: null, language: 'de-DE', timezone: 'Europe/Berlin', screen: '1080x2400' });
  t.deepEqual(hints.raw, { platform: 'Android', lang: 'de-DE', tz: 'Europe/Berlin', screen: '1080x2400', utm_source: 'a' });
  t.like(linkHints({ os: '16.1', language: 'fr', timezone: 'Europe/Paris', platform: 'toaster' }, IPHONE_UA), {
    platform: 'ios',
    osVersion: '16.1',
    language: 'fr',
    timezone: 'Europe/Paris',
  });
});

test('pages and jsonForHtml leave no markup behind; safeUrl passes only http(s) and our own paths', (t) => {
  const page = renderPage({ title: '<t>', lang: 'en"x', body: `<a href="x">'&'</a>` }, 'n');
  t.true(page.startsWith('<!DOCTYPE html>\n<html lang="en&quot;x">'));
  t.true(page.includes('<title>&lt;t></title>'));
  t.true(page.includes(`<main>&lt;a href=&quot;x&quot;>'&amp;'&lt;/a></main>`));
  for (const ok of ['https://x.example/a?b=1', 'http://x.example', '/dashboard/apps/1']) t.is(safeUrl(ok), ok);
  for (const bad of [
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<b>',
    '//evil.example/x',
    '/\\evil.example',
    'vbscript:x',
    '',
    'not a url',
    42,
  ])
    t.is(safeUrl(bad), undefined, String(bad));
  t.false(jsonForHtml({ s: '</script><script>' }).includes('<'));
  t.deepEqual(JSON.parse(jsonForHtml({ s: '</script>' })), { s: '</script>' });
});
