// POST /api/public/campaigns/{id}/join and the human join page GET /dashboard/join/{id} (CONTRACT.md "Public
// creator join").
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createCampaign } from '../../db/campaigns-writes.js';
import { hashToken } from '../../lib/credentials.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { countRows } from '../helpers/db.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import type { CampaignType, CampaignStatus } from '../../schema/types.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });

// Joins are limited to 10 a minute per IP: each call comes from its own address unless a test says otherwise.
let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;
const uniqueEmail = (who: string) => `${who}+${randomBytes(4).toString('hex')}@example.com`;

function join(campaignId: string, body: unknown, ip = nextIp()) {
  return request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, { body, headers: { 'x-forwarded-for': ip } });
}

function page(campaignId: string, query = '') {
  return request(h().baseUrl, 'GET', `/dashboard/join/${campaignId}${query}`, { headers: { accept: 'text/html' } });
}

async function campaign(
  type: CampaignType,
  status: CampaignStatus = 'active',
  name = `${type} ${status}`,
  commissionPercentage = 25,
): Promise<string> {
  return (await createCampaign(h().db, { appId: seed.app_id, orgId: seed.org_id, name, campaignType: type, commissionPercentage, status }))
    .id;
}

async function invite(campaignId: string, opts: { expiresInMs?: number } = {}): Promise<{ id: string; token: string }> {
  const token = `inv_${randomBytes(24).toString('base64url')}`;
  const [row] = await h()
    .db('invitations')
    .insert({
      campaign_id: campaignId,
      org_id: seed.org_id,
      email: uniqueEmail('invitee'),
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + (opts.expiresInMs ?? 86_400_000)),
    })
    .returning('id');
  return { id: row.id, token };
}

const creatorsWithEmail = (email: string) => countRows(h().db('creators').whereRaw('lower(email) = lower(?)', [email]));

test('joining a public campaign creates the creator and issues an INFLU- code (201)', async (t) => {
  const email = uniqueEmail('ann');
  const res = await join(seed.campaign_id, {
    name: '  Ann Example ',
    email,
    social_handle: '@ann',
    follower_count: 1500,
    favourite_colour: 'blue',
  });
  t.is(res.status, 201);
  t.regex(res.body.code, /^INFLU-[A-Z2-9]{6}$/);
  t.is(res.body.campaign_id, seed.campaign_id);
  // The contract's fields, then where joining leads (CONTRACT.md: more may follow).
  t.deepEqual(Object.keys(res.body).sort(), ['campaign_id', 'code', 'creator_id', 'portal_url', 'referral_link', 'referral_link_qr']);
  t.like(await h().db('creators').where('id', res.body.creator_id).first(), {
    name: 'Ann Example',
    email,
    social_handle: '@ann',
    follower_count: 1500,
  });
  t.like(await h().db('creator_codes').where({ campaign_id: seed.campaign_id, creator_id: res.body.creator_id }).first(), {
    app_id: seed.app_id,
    code: res.body.code,
    status: 'active',
    source: 'join',
  });
});

test("a signed-in developer's browser can join too: the public join reads no session, so its cookie needs no CSRF token", async (t) => {
  const dash = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const res = await request(h().baseUrl, 'POST', `/api/public/campaigns/${seed.campaign_id}/join`, {
    body: { name: 'Dev Self', email: uniqueEmail('dev-self') },
    headers: { 'x-forwarded-for': nextIp(), cookie: dash.cookie },
  });
  t.is(res.status, 201, res.text);
  t.regex(res.body.code, /^INFLU-/);
});

test('a requested code is cleaned up and kept', async (t) => {
  const suffix = randomBytes(3).toString('hex');
  const res = await join(seed.campaign_id, { name: 'Bo', email: uniqueEmail('bo'), code: ` vip ${suffix}!` });
  t.is(res.status, 201);
  t.is(res.body.code, `VIP${suffix.toUpperCase()}`);
});

test('a code outside the 4 to 20 rule is 422 on body.code and writes nothing', async (t) => {
  for (const code of ['ab!', 'x'.repeat(21), '!!!!']) {
    const email = uniqueEmail('cy');
    const res = await join(seed.campaign_id, { name: 'Cy', email, code });
    t.is(res.status, 422, code);
    t.deepEqual(
      res.body.detail.map((d: { loc: string[] }) => d.loc),
      [['body', 'code']],
      code,
    );
    t.is(await creatorsWithEmail(email), 0);
  }
});

test('a code taken in the app is 409, whatever its case, and leaves no creator behind', async (t) => {
  for (const code of [seed.creator_code, seed.creator_code.toLowerCase()]) {
    const email = uniqueEmail('dee');
    const res = await join(seed.campaign_id, { name: 'Dee', email, code });
    t.is(res.status, 409);
    t.regex(res.body.detail, /already taken/);
    t.is(await creatorsWithEmail(email), 0);
  }
});

test('bad fields are 422 listing every one of them', async (t) => {
  const res = await join(seed.campaign_id, { name: '', email: 'not-an-email', social_handle: 5, follower_count: -1, code: 7 });
  t.is(res.status, 422);
  const locs = [...new Set(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.')))].sort();
  t.deepEqual(locs, ['body.code', 'body.email', 'body.follower_count', 'body.name', 'body.social_handle']);
  const missing = await join(seed.campaign_id, { name: 'Eve' });
  t.is(missing.status, 422);
  t.deepEqual(missing.body.detail, [{ loc: ['body', 'email'], msg: 'Field required', type: 'missing' }]);
  t.is((await join(seed.campaign_id, { name: 'Eve', email: uniqueEmail('eve'), follower_count: 1.5 })).status, 422);
});

test('joining again with the same email answers 200 with the same membership and changes nothing', async (t) => {
  const email = uniqueEmail('fay');
  const first = await join(seed.campaign_id, { name: 'Fay', email, social_handle: '@fay' });
  t.is(first.status, 201);
  const again = await join(seed.campaign_id, {
    name: 'Someone Else',
    email: email.toUpperCase(),
    social_handle: '@other',
    code: 'FAYNEWCODE',
  });
  t.is(again.status, 200);
  t.deepEqual(again.body, first.body);
  t.like(await h().db('creators').where('id', first.body.creator_id).first(), { name: 'Fay', social_handle: '@fay' });
  t.is(await countRows(h().db('creator_codes').where('creator_id', first.body.creator_id)), 1);
  t.is(await countRows(h().db('creator_codes').where('code', 'FAYNEWCODE')), 0);
});

test('a known creator joining another campaign keeps one creator row', async (t) => {
  const email = uniqueEmail('gil');
  const first = await join(seed.campaign_id, { name: 'Gil', email });
  const other = await campaign('public', 'active', 'Second public');
  const second = await join(other, { name: 'Gil', email });
  t.is(second.status, 201);
  t.is(second.body.creator_id, first.body.creator_id);
  t.not(second.body.code, first.body.code);
  t.is(await creatorsWithEmail(email), 1);
});

test('private and invite-only campaigns need a valid invitation token; accepting it marks the invitation', async (t) => {
  for (const type of ['private', 'invite_only'] as const) {
    const campaignId = await campaign(type);
    const email = uniqueEmail(`${type}-joiner`);
    const body = { name: 'Hal', email };
    const without = await join(campaignId, body);
    // 403, documented in docs/client-api.md and docs/decisions.md (the contract lists 404/409/422 for other causes).
    t.is(without.status, 403, type);
    t.regex(
      without.body.detail,
      new RegExp(`^This campaign is ${type === 'private' ? 'private' : 'invite-only'}: an invitation is required`),
      type,
    );
    t.regex(without.body.detail, /invitation_token/, 'names the field that admits');
    t.is((await join(campaignId, { ...body, invitation_token: 'inv_wrong' })).status, 403, type);
    const expired = await invite(campaignId, { expiresInMs: -60_000 });
    t.is((await join(campaignId, { ...body, invitation_token: expired.token })).status, 403, type);
    const elsewhere = await invite(await campaign(type, 'active', 'another invite campaign'));
    t.is((await join(campaignId, { ...body, invitation_token: elsewhere.token })).status, 403, type);
    t.is(await creatorsWithEmail(email), 0, 'a refused join writes no creator');

    const invitation = await invite(campaignId);
    const ok = await join(campaignId, { ...body, invitation_token: invitation.token });
    t.is(ok.status, 201, type);
    t.like(await h().db('invitations').where('id', invitation.id).first(), { status: 'ACCEPTED', creator_id: ok.body.creator_id });
    t.truthy((await h().db('invitations').where('id', invitation.id).first()).accepted_at);
    t.like(await h().db('creator_codes').where({ campaign_id: campaignId, creator_id: ok.body.creator_id }).first(), { source: 'invite' });

    const retried = await join(campaignId, { ...body, invitation_token: invitation.token });
    t.is(retried.status, 200, 'the same creator retrying with the accepted token is idempotent');
    t.deepEqual(retried.body, ok.body);
    t.is(
      (await join(campaignId, { name: 'Ivy', email: uniqueEmail('ivy'), invitation_token: invitation.token })).status,
      403,
      'a used token admits nobody else',
    );
    t.is((await join(campaignId, body)).status, 403, 'a member without the token gets no answer about the membership');
  }
});

test('the invitation rule comes after the campaign rule: a paused private campaign is 404, bad fields 422, never 403', async (t) => {
  for (const type of ['private', 'invite_only'] as const) {
    const paused = await campaign(type, 'paused', `paused ${type}`);
    t.is((await join(paused, { name: 'Kit', email: uniqueEmail('kit') })).status, 404, `${type} paused: nothing is said about invitations`);
    const open = await campaign(type, 'active', `open ${type}`);
    const bad = await join(open, { name: 'Kit', email: 'not-an-email' });
    t.is(bad.status, 422, `${type}: a bad field is 422 before the invitation is looked at`);
  }
});

test('unknown, paused, draft and FREE_ACCESS campaigns are 404', async (t) => {
  const ids = ['cmp_doesnotexist', await campaign('public', 'paused'), await campaign('public', 'draft'), await campaign('FREE_ACCESS')];
  for (const id of ids) {
    const email = uniqueEmail('jo');
    const res = await join(id, { name: 'Jo', email });
    t.is(res.status, 404, id);
    t.is(typeof res.body.detail, 'string');
    t.is(await creatorsWithEmail(email), 0);
  }
});

test('joins are rate-limited per IP with a plain-text 429', async (t) => {
  const ip = '192.0.2.77';
  for (let i = 0; i < 10; i++) t.is((await join(seed.campaign_id, { name: 'Kim' }, ip)).status, 422);
  const limited = await join(seed.campaign_id, { name: 'Kim', email: uniqueEmail('kim') }, ip);
  t.is(limited.status, 429);
  t.regex(limited.headers.get('content-type') ?? '', /^text\/plain/);
  t.is((await join(seed.campaign_id, { name: 'Kim', email: uniqueEmail('kim') }, '192.0.2.78')).status, 201);
});

test('the join page shows the campaign HTML-escaped, its commission, and a form posting to the join endpoint', async (t) => {
  const name = '<script>alert(1)</script> & "Co"';
  const id = await campaign('public', 'active', name, 12.5);
  await h().db('campaigns').where('id', id).update({ description: '<b>bold</b> offer' });
  const res = await page(id);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
  t.true(res.text.includes('&lt;script>alert(1)&lt;/script> &amp; &quot;Co&quot;'));
  t.false(res.text.includes('<script>alert(1)'));
  t.true(res.text.includes('&lt;b>bold&lt;/b> offer'));
  t.true(res.text.includes('12.5% commission'));
  t.true(res.text.includes(`data-endpoint="${h().baseUrl}/api/public/campaigns/${id}/join"`));
  for (const field of ['name', 'email', 'social_handle', 'follower_count', 'code']) t.true(res.text.includes(`name="${field}"`), field);
  t.deepEqual(
    [...res.text.matchAll(/src="([^"]*)"/g)].map((m) => m[1]),
    [JOIN_SCRIPT],
    'nothing loaded but our own script',
  );
  t.deepEqual(
    [...res.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1]),
    [`${h().config.DASHBOARD_URL}/creator`],
    'the one link: the creator portal',
  );
  const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  t.truthy(nonce);
  t.true(res.text.includes(`<script nonce="${nonce}" src="${JOIN_SCRIPT}"></script>`), 'only the nonce-carrying script may run');
});

test('the join page speaks German, Spanish and French, and English for anything else', async (t) => {
  const cases: [string, string, string][] = [
    ['?lang=de', 'de', 'Kampagne beitreten'],
    ['?lang=es', 'es', 'Unirme a la campaña'],
    ['?lang=fr-CA', 'fr', 'Rejoindre la campagne'],
    ['?lang=xx', 'en', 'Join campaign'],
    ['', 'en', 'Join campaign'],
  ];
  for (const [query, lang, submit] of cases) {
    const res = await page(seed.campaign_id, query);
    t.is(res.status, 200, query);
    t.true(res.text.includes(`<html lang="${lang}">`), query);
    t.true(res.text.includes(submit), query);
  }
});

test('the join page is a 404 page for unknown and non-active campaigns; invite campaigns say an invitation is needed', async (t) => {
  for (const id of ['cmp_doesnotexist', await campaign('public', 'paused'), await campaign('FREE_ACCESS')]) {
    const res = await page(id, '?lang=de');
    t.is(res.status, 404, id);
    t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
    t.true(res.text.includes('Kampagne nicht verfügbar'));
  }
  const privateId = await campaign('private');
  t.true((await page(privateId)).text.includes('by invitation only'));
  const withToken = await page(privateId, '?invitation_token=inv_abc');
  t.false(withToken.text.includes('by invitation only'));
  t.false(withToken.text.includes('inv_abc'), 'the token is never rendered');
});

test('concurrent joins end on the unique indexes: one membership per email, one owner per code', async (t) => {
  const email = uniqueEmail('lee');
  const same = await Promise.all(Array.from({ length: 5 }, () => join(seed.campaign_id, { name: 'Lee', email })));
  t.deepEqual(same.map((r) => r.status).sort(), [200, 200, 200, 200, 201]);
  t.is(new Set(same.map((r) => r.body.code)).size, 1);
  t.is(await creatorsWithEmail(email), 1);
  const code = `RACE${randomBytes(3).toString('hex').toUpperCase()}`;
  const rivals = await Promise.all(
    Array.from({ length: 4 }, (_, i) => join(seed.campaign_id, { name: `Rival ${i}`, email: uniqueEmail('rival'), code })),
  );
  t.deepEqual(rivals.map((r) => r.status).sort(), [201, 409, 409, 409]);
  t.is(await countRows(h().db('creator_codes').where('code', code)), 1);
});

const JOIN_SCRIPT = '/dashboard/static/join-page.js';

/**
 * Runs the page's script (fetched from its src) against a minimal stand-in for the DOM (the elements it touches) and the real
 * fetch, submits the form and resolves with what the page then shows.
 */
async function submitJoinPage(
  html: string,
  values: Record<string, string>,
  search = '',
): Promise<{ done: boolean; message: string; code: string; link: string; qr: { viewBox?: string; path?: string } }> {
  const src = /<script nonce="[^"]+" src="([^"]+)"><\/script>/.exec(html)![1]!;
  const script = await (await fetch(new URL(src, h().baseUrl))).text();
  const texts = /<script type="application\/json" id="join-text">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const endpoint = /data-endpoint="([^"]+)"/.exec(html)![1]!;
  const elements: Record<string, any> = { 'join-text': { textContent: texts } };
  const element = (id: string) =>
    (elements[id] ??= {
      hidden: id !== 'join-form',
      textContent: '',
      focus: () => undefined,
      replaceChildren(...children: unknown[]) {
        this.children = children;
      },
    });
  // What the script draws the QR code with: SVG elements keeping their attributes and children.
  const createElementNS = (_ns: string, tag: string) => ({
    tag,
    attrs: {} as Record<string, string>,
    children: [] as unknown[],
    setAttribute(k: string, v: string) {
      this.attrs[k] = v;
    },
    appendChild(c: unknown) {
      this.children.push(c);
    },
  });
  const button = { disabled: false };
  let onSubmit: (e: { preventDefault(): void }) => void = () => undefined;
  Object.assign(element('join-form'), {
    elements: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
    querySelector: () => button,
    getAttribute: () => endpoint,
    addEventListener: (_: string, fn: typeof onSubmit) => {
      onSubmit = fn;
    },
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('document', 'window', 'fetch', script)(
    { getElementById: element, querySelectorAll: () => [], createElementNS },
    { location: { search } },
    fetch,
  );
  onSubmit({ preventDefault: () => undefined });
  for (let i = 0; i < 200 && element('join-done').hidden && element('join-error').hidden; i++) await new Promise((r) => setTimeout(r, 25));
  const done = !element('join-done').hidden;
  return {
    done,
    message: done ? element('join-done-text').textContent : element('join-error').textContent,
    code: element('join-code').textContent,
    link: element('join-link').href,
    qr: {
      viewBox: element('join-qr').children?.[0]?.attrs.viewBox,
      path: element('join-qr').children?.[0]?.children[1]?.attrs.d,
    },
  };
}

test('the join page script posts the form and shows the code, or says what went wrong', async (t) => {
  const empty = { name: '', email: '', social_handle: '', follower_count: '', code: '' };
  const html = (await page(seed.campaign_id, '?lang=fr')).text;
  const email = uniqueEmail('page');
  const joined = await submitJoinPage(html, { ...empty, name: 'Mia', email, social_handle: '@mia', follower_count: '420' });
  t.true(joined.done);
  t.is(joined.message, 'C’est fait !');
  t.regex(joined.code, /^INFLU-/);
  const slug = (await h().db('apps').where('id', seed.app_id).first('slug')).slug as string;
  t.is(joined.link, `${h().config.BASE_URL}/${slug}/${joined.code}`, 'the referral link is shown');
  t.regex(joined.qr.viewBox ?? '', /^0 0 \d+ \d+$/, 'and its QR code drawn');
  t.regex(joined.qr.path ?? '', /^(M\d+ \d+h1v1h-1z)+$/);
  t.like(await h().db('creators').whereRaw('lower(email) = lower(?)', [email]).first(), {
    name: 'Mia',
    social_handle: '@mia',
    follower_count: 420,
  });
  const taken = await submitJoinPage(html, { ...empty, name: 'Noa', email: uniqueEmail('noa'), code: seed.creator_code });
  t.false(taken.done);
  t.is(taken.message, 'Ce code est déjà pris. Choisissez-en un autre.');
  const privateId = await campaign('private');
  const invitation = await invite(privateId);
  const invited = await submitJoinPage(
    (await page(privateId)).text,
    { ...empty, name: 'Ola', email: uniqueEmail('ola') },
    `?invitation_token=${invitation.token}`,
  );
  t.true(invited.done, 'the token in the page URL is forwarded');
});
