// The SDK package as the app against the real service: codes and access, rules 3, 4, 6, 9, 10 and 14 (fail-soft
// answers, trimmed and uppercased codes, validate-then-set, the access cache).
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { SvcError } from '@svc/sdk/web';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { freshIp, webApp } from '../helpers/sdk-app.js';
import { useHarness } from '../helpers/harness.js';

const h = useHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
let app: SeededApp;

test.before(async () => {
  await h.ready();
  app = await seedApp(h().db);
});

async function freeCode(fields: Record<string, unknown> = {}): Promise<string> {
  const code = `FREE${randomBytes(4).toString('hex').toUpperCase()}`;
  await h()
    .db('free_access_codes')
    .insert({ app_id: app.app_id, code, entitlement: 'pro', access_duration_days: 30, ...fields });
  return code;
}

async function started(ip = freshIp()) {
  const a = webApp(h().baseUrl, app.sdk_key, { ip });
  await a.client.initialize(a.config);
  return a;
}

test('rule 4: codes are trimmed and uppercased before sending; validation results keep snake_case (rule 14)', async (t) => {
  const a = await started();
  const res = await a.client.validateCode(`  ${app.creator_code.toLowerCase()}\t`);
  t.deepEqual(a.net.calls.at(-1)!.body, { code: app.creator_code });
  t.like(res, { valid: true, code: app.creator_code, custom_data: null, campaign: { campaign_type: 'public', commission_percentage: 30 } });
  t.truthy(res.influencer?.name);
  t.like(await a.client.validateCode('ab'), { valid: false, error_code: 'INVALID_FORMAT' });
  t.like(await a.client.validateCode('NOSUCHCODE1'), { valid: false, error_code: 'CODE_NOT_FOUND' });
});

test('rule 3: fail-soft answers while the network is down; initialize and reportPurchase throw', async (t) => {
  const a = await started();
  await a.client.identify(`soft-${randomBytes(3).toString('hex')}`);
  for (const p of [
    '/sdk/campaigns',
    '/sdk/validate-code',
    '/sdk/set-referral-code',
    '/sdk/access',
    '/sdk/purchase',
    '/sdk/event',
    '/sdk/init',
  ])
    a.net.down.add(p);
  t.deepEqual(await a.client.getActiveCampaigns(), []);
  t.like(await a.client.validateCode(app.creator_code), { valid: false, error_code: 'NETWORK_ERROR' });
  t.like(await a.client.setReferralCode(app.creator_code), { success: false });
  t.deepEqual(await a.client.checkAccess(), { hasAccess: false, source: null, entitlement: null, expiresAt: null, code: null });
  t.like(await a.client.trackEvent({ eventType: 'paywall_viewed' }), { tracked: false });
  t.like(await a.client.applyCode(app.creator_code), { applied: false, valid: false, error_code: 'NETWORK_ERROR' });
  const purchaseError = await t.throwsAsync(a.client.reportPurchase({ platform: 'android', purchaseToken: 'tok-offline' }), {
    instanceOf: SvcError,
  });
  t.true(purchaseError.retryable, 'a network failure may be retried');
  const fresh = webApp(h().baseUrl, app.sdk_key, { ip: freshIp(), net: a.net });
  await t.throwsAsync(fresh.client.initialize(fresh.config), { instanceOf: SvcError });
  t.is(await a.client.getReferralCode(), null, 'nothing kept from failed calls');

  // With the network back, the active public campaigns come through.
  a.net.down.clear();
  const campaigns = await a.client.getActiveCampaigns();
  t.deepEqual(
    campaigns.map((c) => c.id),
    [app.campaign_id],
  );
  t.deepEqual(Object.keys(campaigns[0]!).sort(), ['commission_percentage', 'description', 'id', 'name']);
});

test(
  'rule 10: applyCode validates then sets, adds applied, keeps ' + 'the code only after success; rule 6 attributes on application',
  async (t) => {
    const attributes: unknown[] = [];
    const a = webApp(h().baseUrl, app.sdk_key, {
      ip: freshIp(),
      config: {
        setSubscriberAttributes: (x) => {
          attributes.push(x);
        },
      },
    });
    await a.client.initialize(a.config);
    const unknown = await a.client.applyCode('nosuchcode9');
    t.like(unknown, { applied: false, valid: false, success: false, error_code: 'CODE_NOT_FOUND' });
    t.is(await a.client.getReferralCode(), null);

    const before = a.net.calls.length;
    const applied = await a.client.applyCode(` ${app.creator_code.toLowerCase()} `);
    t.deepEqual(
      a.net.calls.slice(before).map((c) => [c.path, c.body.code]),
      [
        ['/sdk/validate-code', app.creator_code],
        ['/sdk/set-referral-code', app.creator_code],
      ],
    );
    t.like(applied, {
      applied: true,
      valid: true,
      success: true,
      code: app.creator_code,
      campaign: { id: app.campaign_id, campaign_type: 'public' },
    });
    t.is(await a.client.getReferralCode(), app.creator_code);
    t.deepEqual(attributes, [{ svc_code: app.creator_code, svc_referral: 'true' }]);

    // setReferralCode on an unknown code: 404 from the service, success false, the stored code unchanged.
    t.like(await a.client.setReferralCode('GONE1234'), { success: false, error_code: 'CODE_NOT_FOUND' });
    t.is(await a.client.getReferralCode(), app.creator_code);
  },
);

test('rules 9, 10: a free-access code redeemed for the identified user; checkAccess caches a positive answer 5 minutes', async (t) => {
  const a = await started();
  const code = await freeCode();
  t.deepEqual(await a.client.checkAccess(), { hasAccess: false, source: null, entitlement: null, expiresAt: null, code: null });
  t.deepEqual(a.net.paths(), ['/sdk/init'], 'no request without a user id');

  t.like(await a.client.setReferralCode(code), { success: false, free_access: true, error_code: 'MISSING_USER_ID' });
  const user = `comp-${randomBytes(3).toString('hex')}`;
  await a.client.identify(user);
  const applied = await a.client.applyCode(code.toLowerCase());
  t.like(applied, {
    applied: true,
    valid: true,
    success: true,
    code,
    campaign: { name: 'Free Access', campaign_type: 'FREE_ACCESS', commission_percentage: 0 },
    influencer: null,
  });
  for (const field of ['free_access', 'grants_access', 'already_granted', 'entitlement', 'expires_at', 'rc_grant', 'access_duration_days'])
    t.false(field in applied, field);
  t.like(a.net.calls.at(-1)!.body, { code, app_user_id: user }, 'the identified user by default');
  t.is(await a.client.getReferralCode(), null, 'a free-access code is no creator code');

  const access = await a.client.checkAccess();
  t.like(access, { hasAccess: true, source: 'comp', entitlement: 'pro', code });
  t.truthy(access.expiresAt);
  const requests = () => a.net.calls.filter((c) => c.path === '/sdk/access').length;
  t.is(requests(), 1);
  t.deepEqual(await a.client.checkAccess(), access);
  t.is(requests(), 1, 'answered from @svc/access');
  a.clock.now += 5 * 60_000 + 1;
  t.like(await a.client.checkAccess(), { hasAccess: true });
  t.is(requests(), 2, 'asked again after 5 minutes');

  // Blocked on the server: still cached within the 5 minutes, then negative and never cached.
  await h().db('free_access_codes').where({ app_id: app.app_id, code }).update({ blocked: true });
  t.like(await a.client.checkAccess(), { hasAccess: true });
  a.clock.now += 5 * 60_000 + 1;
  t.like(await a.client.checkAccess(), { hasAccess: false });
  t.is(await a.storage.getItem('@svc/access'), null, 'a negative answer is not cached');
  await a.client.checkAccess();
  t.is(requests(), 4, 'each negative check asks the service');
});

test('rule 10: an expired free-access code answers CODE_EXPIRED through validation, and applyCode does not apply it', async (t) => {
  const a = await started();
  await a.client.identify(`late-${randomBytes(3).toString('hex')}`);
  const code = await freeCode({ expires_at: new Date(Date.now() - 86_400_000) });
  t.like(await a.client.applyCode(code), { applied: false, valid: false, error_code: 'CODE_EXPIRED' });
  t.like(await a.client.checkAccess(), { hasAccess: false });
});
