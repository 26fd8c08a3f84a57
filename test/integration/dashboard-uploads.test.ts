// Credential uploads from the setup page (POST /api/apps/{app_id}/credentials, multipart as the page's form sends
// it): a file over 64 KB, a body over 256 KB, a file of the wrong kind (not a .p8 PEM for iOS, not a .json of JSON for
// Android) and missing or malformed fields come back to the setup page (303, issue 41) with a clear message; a body
// that is neither a form nor JSON is 415 and JSON callers get 422 naming the fields; nothing is stored by a refused
// upload. A good Android key then passes the green-check against the Google stub through the dashboard REST and
// switches the platform to store-direct.
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { signInDashboard, sessionCall, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startGoogleStub, type GoogleStub } from '../stubs/google-api.js';

const { h, seed } = useSeededHarness(test);
let session: DashboardSession;
let google: GoogleStub;
const CLIENT_EMAIL = 'svc@proj.iam.gserviceaccount.com';
const PACKAGE = 'com.example.game';

test.before(async () => {
  await h.ready();
  google = await startGoogleStub();
  Object.assign(h().config, { GOOGLE_PLAY_API_ROOT: google.url, GOOGLE_TOKEN_URL: google.tokenUrl });
  session = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
});
test.after.always(async () => {
  await google?.close();
});

/** Posts the upload form as the page does (the csrf field inside the multipart body). */
async function uploadForm(fields: Record<string, string>, file?: { name: string; type: string; content: string | Buffer }) {
  const form = new FormData();
  form.set('csrf', session.csrf);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file)
    form.set(
      'file',
      new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: file.type }),
      file.name,
    );
  const res = await fetch(`${h().baseUrl}/api/apps/${seed.app_id}/credentials`, {
    method: 'POST',
    body: form,
    headers: { cookie: session.cookie },
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), page: await pageAfter(res) };
}

/** A refused upload goes back to its page (303): that page, with the message the post left for it. */
async function pageAfter(res: Response): Promise<string> {
  const to = res.headers.get('location');
  const flash = res.headers.getSetCookie().find((c) => c.startsWith('svc_flash='));
  if (res.status !== 303 || !to || !flash) return '';
  const next = await fetch(new URL(to, h().baseUrl), { headers: { cookie: `${session.cookie}; ${flash.split(';')[0]}` } });
  return next.text();
}

const stored = async () => Number((await h().db('store_credentials').where('app_id', seed.app_id).count<{ n: string }[]>('* as n'))[0]!.n);
const p8 = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const IOS = {
  platform: 'ios',
  key_id: 'ABCDE12345',
  issuer_id: '57246542-96fe-1a63-e053-0824d011072a',
  bundle_id: 'com.example.app',
  environment: 'sandbox',
};

test.serial('limits: too large, wrong type, bad fields, each with a clear message on the setup page and nothing stored', async (t) => {
  const big = await uploadForm(IOS, {
    name: 'AuthKey.p8',
    type: 'application/octet-stream',
    content: `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(70 * 1024)}`,
  });
  // A page's upload comes back to the page, the message under the file field (issue 41).
  t.is(big.status, 303);
  t.regex(big.page, /larger than 64 KB \(65536 bytes\)/);
  const huge = await uploadForm({
    ...IOS,
    note: 'x'.repeat(60 * 1024),
    note2: 'x'.repeat(60 * 1024),
    note3: 'x'.repeat(60 * 1024),
    note4: 'x'.repeat(60 * 1024),
    note5: 'x'.repeat(60 * 1024),
  });
  t.is(huge.status, 303);
  t.regex(huge.page, /larger than 256 KB \(262144 bytes\)/);

  const txt = await uploadForm(IOS, { name: 'notes.txt', type: 'text/plain', content: 'hello' });
  t.is(txt.status, 303);
  t.regex(txt.page, /\.p8 file from App Store Connect/);
  const notJson = await uploadForm(
    { platform: 'android', package_name: PACKAGE },
    { name: 'key.json', type: 'application/json', content: '{not json' },
  );
  t.is(notJson.status, 303);
  t.regex(notJson.page, /not JSON/);
  const plain = await fetch(`${h().baseUrl}/api/apps/${seed.app_id}/credentials`, {
    method: 'POST',
    body: '{"platform":"ios"}',
    headers: { cookie: session.cookie, 'content-type': 'application/xml', 'x-csrf-token': session.csrf },
  });
  t.is(plain.status, 415);
  t.regex(((await plain.json()) as { detail: string }).detail, /multipart\/form-data/);

  const missing = await uploadForm({ ...IOS, key_id: '' }, { name: 'AuthKey.p8', type: 'application/octet-stream', content: p8() });
  t.is(missing.status, 303);
  t.regex(missing.page, /Key id: Enter the 10-character key id/, 'the field named in words');
  t.notRegex(missing.page, /BEGIN PRIVATE KEY/, 'the secret is never echoed');
  const json = await sessionCall(h().baseUrl, session, 'POST', `/api/apps/${seed.app_id}/credentials`, {
    platform: 'android',
    package_name: PACKAGE,
    service_account_json: { type: 'nope' },
  });
  t.is(json.status, 422);
  t.deepEqual(
    json.body.detail.map((p: { loc: string[] }) => p.loc.at(-1)),
    ['service_account_json'],
  );

  t.is(await stored(), 0, 'nothing half-stored');
  t.deepEqual((await h().db('apps').where('id', seed.app_id).first('apple_meta')).apple_meta ?? {}, {});

  const ok = await uploadForm(IOS, { name: 'AuthKey_ABCDE12345.p8', type: 'application/octet-stream', content: p8() });
  t.is(ok.status, 303, ok.text);
  t.like(await h().db('store_credentials').where({ app_id: seed.app_id, platform: 'ios' }).first(), {
    key_id: 'ABCDE12345',
    check_status: 'unchecked',
  });
});

test.serial('an Android service account uploaded from the page passes the green-check and switches the platform', async (t) => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    type: 'service_account',
    client_email: CLIENT_EMAIL,
    private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    project_id: 'proj',
  };
  google.expect = { publicKey: pair.publicKey, clientEmail: CLIENT_EMAIL, packageName: PACKAGE };
  const up = await uploadForm(
    { platform: 'android', package_name: PACKAGE },
    { name: 'proj-123.json', type: 'application/json', content: JSON.stringify(account) },
  );
  t.is(up.status, 303, up.text);
  t.is(
    (await sessionCall(h().baseUrl, session, 'POST', `/api/apps/${seed.app_id}/activate-store-direct`, { platform: 'android' })).status,
    409,
    'not before the green-check',
  );
  const check = await sessionCall(h().baseUrl, session, 'POST', `/api/apps/${seed.app_id}/validate-store-credentials`, {
    platform: 'android',
  });
  t.is(check.status, 200, check.text);
  t.like(check.body, { platform: 'android', status: 'ok', passed: true });
  const act = await sessionCall(h().baseUrl, session, 'POST', `/api/apps/${seed.app_id}/activate-store-direct`, { platform: 'android' });
  t.is(act.status, 200, act.text);
  const setup = await sessionCall(h().baseUrl, session, 'GET', `/api/apps/${seed.app_id}/setup`);
  t.like(setup.body.validation.android, { validation_path: 'store-direct', ready: true, store_credential: { passed: true } });
  t.false(JSON.stringify(setup.body).includes('PRIVATE KEY'));
});

test.serial("the agent's signed credential link shows the upload form; the human's multipart upload is stored once", async (t) => {
  const link = await request(h().baseUrl, 'POST', `/api/agent/apps/${seed.app_id}/credential-setup-link`, {
    token: seed.agent_key,
    body: { platform: 'ios' },
  });
  t.is(link.status, 200, link.text);
  const path = (link.body.url as string).slice(h().config.DASHBOARD_URL.length - '/dashboard'.length);
  const page = await fetch(`${h().baseUrl}${path}`);
  const html = await page.text();
  t.regex(html, /enctype="multipart\/form-data"/);
  t.regex(html, /<label for="ios-file">App Store Connect key \(\.p8\)<\/label>/);
  const send = async (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([p8()], { type: 'application/octet-stream' }), 'AuthKey.p8');
    const res = await fetch(`${h().baseUrl}${path}`, { method: 'POST', body: form });
    return { status: res.status, text: await res.text() };
  };
  const bad = await send({ ...IOS, bundle_id: 'nope' });
  t.is(bad.status, 422);
  t.regex(bad.text, /bundle_id: A bundle id/);
  const ok = await send({ ...IOS, key_id: 'ZZZZZ12345' });
  t.is(ok.status, 200, ok.text);
  t.regex(ok.text, /Credential stored/);
  t.is((await h().db('store_credentials').where({ app_id: seed.app_id, platform: 'ios' }).first('key_id')).key_id, 'ZZZZZ12345');
  t.is((await send(IOS)).status, 410, 'the link works once');
});
