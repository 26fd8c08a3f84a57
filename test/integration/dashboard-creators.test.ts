// The dashboard REST of creators, invitations, bonus awards, free-access codes and assets (api/dashboard/
// routes.ts CREATOR_ROUTES), route by route as dashboard-rest.test.ts: no credential, an SDK key or an agent key is 401; a
// change without the session's CSRF token 403; another organization's id 404. Then the rules: single and batch
// invitations and withdrawal with the invite capacity; bonus review through svc_review_bonus_award's handler
// (members 403, 402 when the wallet cannot cover it, one reserve entry); free codes created and blocked (the SDK's
// access ends); assets under the upload limits (413 / 415 / 422, nothing stored), served with their type and
// nosniff, never under the client's file name, and a failed row insert leaves no file behind.
import test from 'ava';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CREATOR_ROUTES } from '../../api/dashboard/routes.js';
import { addMembership, createUser } from '../../db/organizations-writes.js';
import { hashPassword } from '../../lib/passwords.js';
import { request } from '../helpers/http.js';
import { signInDashboard, sessionCall, type DashboardSession } from '../helpers/dashboard.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const assetDir = mkdtempSync(path.join(tmpdir(), 'svc-assets-'));
const MAX = 4096;
const { h, seed } = useSeededHarness(test, {
  worker: false,
  env: { ASSET_STORAGE_DIR: assetDir, ASSET_MAX_BYTES: String(MAX), MARKETPLACE_SLOTS: '3' },
});
let other: SeededApp;
let owner: DashboardSession;
let member: DashboardSession;
let otherIds: Record<string, string>;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

async function creatorOf(campaignId: string): Promise<string> {
  return (await h().db('creator_codes').where('campaign_id', campaignId).first('creator_id')).creator_id as string;
}

let threshold = 0;

async function seedAward(orgId: string, campaignId: string, usd: number): Promise<string> {
  threshold += 1;
  const [rule] = await h()
    .db('bonus_rules')
    .insert({ campaign_id: campaignId, name: unique('Reach '), threshold_conversions: threshold, bonus_micros: usd * 1e6 })
    .returning('id');
  const [award] = await h()
    .db('bonus_awards')
    .insert({
      bonus_rule_id: rule.id,
      campaign_id: campaignId,
      creator_id: await creatorOf(campaignId),
      org_id: orgId,
      amount_micros: usd * 1e6,
      threshold_conversions: threshold,
      progress_count: threshold,
    })
    .returning('id');
  return award.id as string;
}

test.before(async () => {
  await h.ready();
  other = await seedApp(h().db);
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const email = `member-${Date.now()}@example.com`;
  const user = await createUser(h().db, { email, passwordHash: await hashPassword('member password 123'), emailVerified: true });
  await addMembership(h().db, seed.org_id, user.id, 'member');
  member = await signInDashboard(h().baseUrl, email, 'member password 123');
  const [asset] = await h()
    .db('assets')
    .insert({ app_id: other.app_id, org_id: other.org_id, type: 'image', url: 'https://example.com/a.png' })
    .returning('id');
  const [invitation] = await h()
    .db('invitations')
    .insert({
      campaign_id: other.campaign_id,
      org_id: other.org_id,
      email: 'x@example.com',
      token_hash: randomBytes(32).toString('hex'),
      status: 'PENDING',
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id');
  const [code] = await h()
    .db('free_access_codes')
    .insert({ app_id: other.app_id, code: unique('OTHER') })
    .returning('id');
  const membership = await h().db('creator_codes').where({ campaign_id: other.campaign_id, creator_id: other.creator_id }).first('id');
  const [offer] = await h()
    .db('offer_codes')
    .insert({
      app_id: other.app_id,
      campaign_id: other.campaign_id,
      creator_id: other.creator_id,
      creator_code_id: membership.id,
      platform: 'android',
      match: 'offer_tag',
      value: 'other-tag',
    })
    .returning('id');
  otherIds = {
    app_id: other.app_id,
    creator_id: other.creator_id,
    offer_code_id: offer.id,
    campaign_id: other.campaign_id,
    asset_id: asset.id,
    invitation_id: invitation.id,
    free_code_id: code.id,
    award_id: await seedAward(other.org_id, other.campaign_id, 5),
  };
});

const fill = (p: string, ids: Record<string, string>) => p.replace(/:(\w+)/g, (_, k: string) => ids[k] ?? `none_${k}`);
const bodyFor = (p: string) =>
  p.endsWith('/invite')
    ? { email: 'a@example.com' }
    : p.endsWith('/review')
      ? { decision: 'approve' }
      : p.endsWith('/featured')
        ? { featured: true }
        : p.endsWith('/free-codes')
          ? { code: unique('NEW') }
          : p.endsWith('/offer-codes')
            ? { platform: 'ios', value: 'Another offer' }
            : {};

test.serial('every route refuses no credential, SDK keys and agent keys with 401', async (t) => {
  t.is(CREATOR_ROUTES.length, 16);
  for (const route of CREATOR_ROUTES) {
    const p = fill(route.path, { app_id: seed.app_id, campaign_id: seed.campaign_id });
    for (const [what, token] of [
      ['none', undefined],
      ['sdk key', seed.sdk_key],
      ['agent key', seed.agent_key],
      ['webhook secret', seed.webhook_secret],
    ] as const) {
      const res = await request(h().baseUrl, route.method.toUpperCase(), p, { token, body: route.method === 'get' ? undefined : {} });
      t.is(res.status, 401, `${route.method} ${route.path} with ${what}`);
      t.is(typeof res.body.detail, 'string');
    }
  }
});

test.serial('every state-changing route needs the session CSRF token (403, nothing changes)', async (t) => {
  const before = await h().db('invitations').count<{ count: string }[]>('* as count');
  const assets = (await h().db('assets').where('app_id', seed.app_id)).length;
  for (const route of CREATOR_ROUTES.filter((r) => r.method !== 'get')) {
    for (const csrf of [null, 'forged-token']) {
      const res = await sessionCall(
        h().baseUrl,
        owner,
        'POST',
        fill(route.path, { app_id: seed.app_id, campaign_id: seed.campaign_id }),
        bodyFor(route.path),
        csrf,
      );
      t.is(res.status, 403, `${route.path} csrf=${csrf}`);
      t.regex(res.body.detail, /CSRF/);
    }
  }
  // The multipart upload checks its csrf field after parsing: missing is 403 and nothing is stored.
  const form = new FormData();
  form.set('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
  const upload = await fetch(`${h().baseUrl}/api/apps/${seed.app_id}/assets`, {
    method: 'POST',
    body: form,
    headers: { cookie: owner.cookie },
    redirect: 'manual',
  });
  t.is(upload.status, 403);
  t.deepEqual(await h().db('invitations').count<{ count: string }[]>('* as count'), before);
  t.is((await h().db('assets').where('app_id', seed.app_id)).length, assets);
});

test.serial(
  "another organization's app, campaign, invitation, award, free code, offer code or asset is 404 on every route naming one",
  async (t) => {
    for (const route of CREATOR_ROUTES.filter((r) => r.path.includes(':'))) {
      const res =
        route.path.endsWith('/assets') && route.method === 'post'
          ? await fetch(`${h().baseUrl}${fill(route.path, otherIds)}`, {
              method: 'POST',
              body: (() => {
                const f = new FormData();
                f.set('file', new Blob([PNG]), 'a.png');
                return f;
              })(),
              headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, accept: 'application/json' },
              redirect: 'manual',
            }).then(async (r) => ({ status: r.status, body: { detail: await r.text() } }))
          : await sessionCall(
              h().baseUrl,
              owner,
              route.method.toUpperCase(),
              fill(route.path, otherIds),
              route.method === 'get' ? undefined : bodyFor(route.path),
            );
      t.is(res.status, 404, `${route.method} ${route.path}`);
      t.regex(String(res.body.detail), /not found/i);
    }
    t.is((await h().db('bonus_awards').where('id', otherIds.award_id).first('status')).status, 'earned');
    t.is((await h().db('invitations').where('id', otherIds.invitation_id).first('status')).status, 'PENDING');
    t.false((await h().db('free_access_codes').where('id', otherIds.free_code_id).first('blocked')).blocked);
    t.is((await h().db('offer_codes').where('id', otherIds.offer_code_id).first('status')).status, 'active');
    t.is((await h().db('offer_codes').where('app_id', other.app_id)).length, 1, 'no offer code added to the other app');
  },
);

test.serial('invite one creator, a batch from the textarea (per-line results), withdraw; capacity counts the pending ones', async (t) => {
  const one = await sessionCall(h().baseUrl, owner, 'POST', `/api/campaigns/${seed.campaign_id}/invite`, {
    email: 'solo@example.com',
    name: 'Solo',
  });
  t.is(one.status, 201, one.text);
  t.is(one.body.status, 'PENDING');
  const mails = await h().db('email_outbox').where({ to_address: 'solo@example.com' }).select('body_text');
  t.is(mails.length, 1);
  const token = /invitation_token=([^&\s]+)/.exec(mails[0].body_text as string)![1]!;
  t.false(JSON.stringify(one.body).includes(token), 'the invitation token travels only in the email');

  // The batch form, as the page posts it: a bad line and a duplicate are reported per line, the rest invited.
  const form = await member.browser.fetch(`${h().baseUrl}/api/campaigns/${seed.campaign_id}/invite`, {
    form: {
      csrf: member.csrf,
      return_to: '/dashboard/creators',
      batch: 'email,name,lang\nana@example.com, Ana, es\nnot-an-email\nana@example.com\nbo@example.com',
      message: 'Join us',
    },
  });
  t.is(form.status, 303, form.text.slice(0, 300));
  const rows = await h()
    .db('invitations')
    .where('campaign_id', seed.campaign_id)
    .whereIn('email', ['ana@example.com', 'bo@example.com'])
    .select('email', 'lang', 'message', 'invited_by');
  t.deepEqual(rows.map((r) => r.email).sort(), ['ana@example.com', 'bo@example.com']);
  t.is(rows.find((r) => r.email === 'ana@example.com')!.lang, 'es');
  t.true(
    rows.every((r) => r.message === 'Join us' && /^usr_/.test(r.invited_by)),
    'invited_by is the signed-in user',
  );

  // JSON batch: per-item results; the fourth pending invitation is over MARKETPLACE_SLOTS=3.
  const batch = await sessionCall(h().baseUrl, owner, 'POST', `/api/campaigns/${seed.campaign_id}/invite`, {
    creators: [{ email: 'cy@example.com' }, { email: 'bad' }],
  });
  t.is(batch.status, 200);
  t.like(batch.body.results[0], { email: 'cy@example.com', ok: false, error: 'no_slots' });
  t.like(batch.body.results[1], { ok: false, error: 'invalid_email' });
  const tooMany = await sessionCall(h().baseUrl, owner, 'POST', `/api/campaigns/${seed.campaign_id}/invite`, { email: 'dee@example.com' });
  t.is(tooMany.status, 402);

  const page = await owner.browser.fetch(`${h().baseUrl}/dashboard/creators`);
  t.regex(page.text, /id="slots-available">0 of 3 free/);
  t.regex(page.text, new RegExp(seed.creator_code));

  const withdrawn = await sessionCall(h().baseUrl, owner, 'POST', `/api/invitations/${one.body.invitation_id}/withdraw`, {});
  t.is(withdrawn.status, 200);
  t.is(withdrawn.body.status, 'WITHDRAWN');
  t.is((await sessionCall(h().baseUrl, owner, 'POST', `/api/invitations/${one.body.invitation_id}/withdraw`, {})).status, 409);
  t.regex((await owner.browser.fetch(`${h().baseUrl}/dashboard/creators`)).text, /id="slots-available">1 of 3 free/);
  const listed = await sessionCall(h().baseUrl, owner, 'GET', '/api/invitations?status=all');
  t.true(listed.body.invitations.every((i: { campaign_id: string }) => i.campaign_id === seed.campaign_id));

  const tooLong = await sessionCall(h().baseUrl, owner, 'POST', `/api/campaigns/${seed.campaign_id}/invite`, {
    creators: Array.from({ length: 101 }, (_, i) => ({ email: `x${i}@example.com` })),
  });
  t.is(tooLong.status, 422);
  const formTooLong = await owner.browser.fetch(`${h().baseUrl}/api/campaigns/${seed.campaign_id}/invite`, {
    form: { csrf: owner.csrf, batch: Array.from({ length: 101 }, (_, i) => `x${i}@example.com`).join('\n') },
  });
  t.is(formTooLong.status, 303, 'a refused form goes back to its page');
  t.regex((await owner.browser.fetch(`${h().baseUrl}/dashboard/creators`)).text, /At most 100 creators per batch/);
});

test.serial(
  'bonus review: members 403; owners approve (one reserve entry) or void; 402 with the way to top up when the wallet cannot cover it',
  async (t) => {
    const small = await seedAward(seed.org_id, seed.campaign_id, 25);
    const huge = await seedAward(seed.org_id, seed.campaign_id, 5000);
    const voided = await seedAward(seed.org_id, seed.campaign_id, 10);

    const byMember = await sessionCall(h().baseUrl, member, 'POST', `/api/bonus-awards/${small}/review`, { decision: 'approve' });
    t.is(byMember.status, 403);
    t.regex(byMember.body.detail, /owners and admins/);

    const approved = await sessionCall(h().baseUrl, owner, 'POST', `/api/bonus-awards/${small}/review`, {
      decision: 'approve',
      note: 'fine',
    });
    t.is(approved.status, 200, approved.text);
    t.like(approved.body, { status: 'approved', amount_micros: 25e6, review_note: 'fine' });
    t.regex(approved.body.reviewed_by, /^usr_/);
    const reserves = await h().db('wallet_ledger').where({ bonus_award_id: small }).select('entry_type', 'reserved_delta_micros');
    t.deepEqual(
      reserves.map((r) => [r.entry_type, Number(r.reserved_delta_micros)]),
      [['reserve', 25e6]],
    );
    const twice = await sessionCall(h().baseUrl, owner, 'POST', `/api/bonus-awards/${small}/review`, { decision: 'approve' });
    t.is(twice.status, 409, 'approved once; it could still be voided until paid');
    t.regex(twice.body.detail, /'approved'/);

    const refused = await owner.browser.fetch(`${h().baseUrl}/api/bonus-awards/${huge}/review`, {
      form: { csrf: owner.csrf, decision: 'approve', return_to: '/dashboard/bonus-awards' },
    });
    t.is(refused.status, 303, 'a refused form goes back to its page');
    t.regex((await owner.browser.fetch(`${h().baseUrl}/dashboard/bonus-awards`)).text, /href="\/dashboard\/wallet"/);
    t.is((await h().db('bonus_awards').where('id', huge).first('status')).status, 'earned');
    t.is((await h().db('wallet_ledger').where({ bonus_award_id: huge })).length, 0);

    const v = await sessionCall(h().baseUrl, owner, 'POST', `/api/bonus-awards/${voided}/review`, { decision: 'void' });
    t.is(v.body.status, 'voided');
    const page = await member.browser.fetch(`${h().baseUrl}/dashboard/bonus-awards?status=earned`);
    t.true(page.text.includes(huge));
    t.false(page.text.includes('>Approve<'), 'members see no review buttons');
    const approvedPage = await owner.browser.fetch(`${h().baseUrl}/dashboard/bonus-awards?status=approved`);
    const smallRow = approvedPage.text.slice(approvedPage.text.indexOf(`data-award="${small}"`));
    t.regex(smallRow.slice(0, smallRow.indexOf('</tr>')), />Void</, 'an approved award can still be voided from the page');
    t.notRegex(smallRow.slice(0, smallRow.indexOf('</tr>')), />Approve</);
    const list = await sessionCall(h().baseUrl, member, 'GET', '/api/bonus-awards?status=approved');
    t.deepEqual(
      list.body.bonus_awards.map((a: { id: string }) => a.id),
      [small],
    );
  },
);

test.serial('free codes: created from the form, listed, blocked (the SDK access of its holder ends), unblocked', async (t) => {
  const code = unique('COMP');
  const created = await member.browser.fetch(`${h().baseUrl}/api/apps/${seed.app_id}/free-codes`, {
    form: { csrf: member.csrf, code: code.toLowerCase(), seat_limit: '2', access_duration_days: '30', return_to: '/dashboard/free-codes' },
  });
  t.is(created.status, 303);
  const row = await h().db('free_access_codes').where({ app_id: seed.app_id, code }).first();
  t.like(row, { seat_limit: 2, access_duration_days: 30, blocked: false });
  t.regex(row.created_by, /^usr_/);
  t.is((await sessionCall(h().baseUrl, owner, 'POST', `/api/apps/${seed.app_id}/free-codes`, { code })).status, 409);
  t.is((await sessionCall(h().baseUrl, owner, 'POST', `/api/apps/${seed.app_id}/free-codes`, { code: 'ab' })).status, 422);

  const user = unique('u-');
  t.is(
    (await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', { token: seed.sdk_key, body: { code, app_user_id: user } })).status,
    200,
  );
  const access = () => request(h().baseUrl, 'GET', `/api/sdk/access?app_user_id=${user}`, { token: seed.sdk_key });
  t.true((await access()).body.has_access);

  const blocked = await sessionCall(h().baseUrl, member, 'POST', `/api/apps/${seed.app_id}/free-codes/${row.id}/block`, {});
  t.is(blocked.status, 200);
  t.like(blocked.body, { blocked: true, live: false });
  t.false((await access()).body.has_access);
  const listed = await sessionCall(h().baseUrl, owner, 'GET', `/api/apps/${seed.app_id}/free-codes`);
  t.like(
    listed.body.free_codes.find((c: { code: string }) => c.code === code),
    { blocked: true },
  );
  const one = await sessionCall(h().baseUrl, owner, 'GET', `/api/apps/${seed.app_id}/free-codes?code=${code}`);
  t.like(one.body, { code, blocked: true, next_cursor: null });
  t.deepEqual(
    one.body.redemptions.map((r: { app_user_id: string }) => r.app_user_id),
    [user],
    'the dashboard reads who redeemed it as the agent does',
  );
  const unblocked = await sessionCall(h().baseUrl, member, 'POST', `/api/apps/${seed.app_id}/free-codes/${row.id}/block`, {
    blocked: false,
  });
  t.like(unblocked.body, { blocked: false, live: true });
  t.is(
    (await sessionCall(h().baseUrl, member, 'POST', `/api/apps/${seed.app_id}/free-codes/${otherIds.free_code_id}/block`, {})).status,
    404,
  );
});

function upload(file: Blob | undefined, fields: Record<string, string> = {}, filename = 'a.png', s = owner) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set('file', file, filename);
  return fetch(`${h().baseUrl}/api/apps/${seed.app_id}/assets`, {
    method: 'POST',
    body: form,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, accept: 'application/json' },
    redirect: 'manual',
  });
}

const storedFiles = () =>
  readdirSync(assetDir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);

test.serial(
  'asset uploads: 413, 415 and 422 with a clear message and nothing stored; then stored, served with its type and nosniff, featured',
  async (t) => {
    const before = storedFiles().length;
    const big = await upload(new Blob([PNG, Buffer.alloc(MAX)], { type: 'image/png' }));
    t.is(big.status, 413);
    t.regex(await big.text(), /larger than 4 KB \(4096 bytes\)/);
    const html = await upload(new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }), {}, 'looks.png');
    t.is(html.status, 415);
    t.regex(await html.text(), /not a PNG, JPEG, GIF, WebP, PDF or MP4/);
    const none = await upload(undefined, { title: 'x' });
    t.is(none.status, 422);
    t.regex(await none.text(), /file/);
    const badField = await upload(new Blob([PNG]), { category: 'Not OK!' });
    t.is(badField.status, 422);
    t.deepEqual(
      ((await badField.json()) as { detail: { loc: string[] }[] }).detail.map((p) => p.loc.at(-1)),
      ['category'],
      'the field is named (a page shows it under the field: dashboard-form-errors-browser.test.ts)',
    );
    const json = await sessionCall(h().baseUrl, owner, 'POST', `/api/apps/${seed.app_id}/assets`, { file: 'x' });
    t.is(json.status, 415);
    t.is(storedFiles().length, before);
    t.is((await h().db('assets').where('app_id', seed.app_id)).length, 0);

    // The client's file name never becomes the path.
    const ok = await upload(
      new Blob([PNG], { type: 'text/html' }),
      { title: 'Story banner', category: 'story', csrf: owner.csrf },
      '../../../etc/evil.html',
    );
    t.is(ok.status, 303);
    const asset = await h().db('assets').where('app_id', seed.app_id).first();
    t.like(asset, { title: 'Story banner', category: 'story', type: 'image', mime_type: 'image/png', featured: false });
    t.is(Number(asset.size_bytes), PNG.length);
    t.regex(asset.storage_key, new RegExp(`^${seed.app_id}/[0-9a-f]{32}\\.png$`));
    t.false(storedFiles().some((f) => f.includes('evil')));

    const served = await fetch(`${h().baseUrl}/api/assets/${asset.id}/file`, { headers: { cookie: member.cookie } });
    t.is(served.status, 200);
    t.is(served.headers.get('content-type'), 'image/png');
    t.is(served.headers.get('x-content-type-options'), 'nosniff');
    t.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);

    const featured = await sessionCall(h().baseUrl, member, 'POST', `/api/assets/${asset.id}/featured`, { featured: true });
    t.like(featured.body, { id: asset.id, featured: true });
    const listed = await sessionCall(h().baseUrl, owner, 'GET', `/api/apps/${seed.app_id}/assets`);
    t.deepEqual(
      listed.body.assets.map((a: { id: string; featured: boolean }) => [a.id, a.featured]),
      [[asset.id, true]],
    );
    // The agent API sees the same row.
    const agent = await request(h().baseUrl, 'GET', `/api/agent/apps/${seed.app_id}/assets`, { token: seed.agent_key });
    t.is(agent.body.assets[0].featured, true);
  },
);

test.serial('a failed row insert removes the stored file: file and row both or neither', async (t) => {
  const before = storedFiles().length;
  const rows = (await h().db('assets').where('app_id', seed.app_id)).length;
  // A real PostgreSQL refusal of the insert (a constraint added for this test only).
  await h().db.raw("alter table assets add constraint test_refuse_title check (title is distinct from 'refuse me')");
  try {
    const res = await upload(new Blob([PNG]), { title: 'refuse me' });
    t.is(res.status, 500);
  } finally {
    await h().db.raw('alter table assets drop constraint test_refuse_title');
  }
  t.is(storedFiles().length, before);
  t.is((await h().db('assets').where('app_id', seed.app_id)).length, rows);
});
