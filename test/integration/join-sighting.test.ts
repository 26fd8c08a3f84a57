// A creator's join address (docs/fraud-signals.md "Facts the signals read"): the public join and the invitation accept
// record the request's canonical client IP and User-Agent on the new membership (creator_codes.join_ip,
// join_user_agent), and the worker's periodic prune forgets them JOIN_SIGHTING_RETENTION_DAYS after the join.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createCampaign } from '../../db/campaigns-writes.js';
import { startJoinSightingPrune } from '../../jobs/join-sighting-prune.js';
import { hashToken } from '../../lib/credentials.js';
import { JOIN_SIGHTING_RETENTION_DAYS } from '../../lib/fraud-signals/index.js';
import { createLogger } from '../../runtime/logger.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { waitFor } from '../helpers/svc-processes.js';

const { h, seed } = useSeededHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter}`;
const uniqueEmail = (who: string) => `${who}+${randomBytes(4).toString('hex')}@example.com`;

function join(campaignId: string, body: unknown, ip: string, userAgent = PHONE_UA) {
  return request(h().baseUrl, 'POST', `/api/public/campaigns/${campaignId}/join`, {
    body,
    headers: { 'x-forwarded-for': ip, 'user-agent': userAgent },
  });
}

const membership = (creatorId: string, campaignId: string) =>
  h().db('creator_codes').where({ creator_id: creatorId, campaign_id: campaignId }).first('id', 'join_ip', 'join_user_agent', 'joined_at');

test('a public join records the canonical client IP and the User-Agent; joining again changes neither', async (t) => {
  const email = uniqueEmail('jo');
  const res = await join(seed.campaign_id, { name: 'Jo', email }, '::ffff:203.0.113.200');
  t.is(res.status, 201, res.text);
  t.like(await membership(res.body.creator_id, seed.campaign_id), { join_ip: '203.0.113.200', join_user_agent: PHONE_UA });

  const again = await join(seed.campaign_id, { name: 'Jo', email }, '2001:db8::7', 'curl/8.0');
  t.is(again.status, 200);
  t.like(await membership(res.body.creator_id, seed.campaign_id), { join_ip: '203.0.113.200', join_user_agent: PHONE_UA });
});

test('an IPv6 join is stored in RFC 5952 form; a very long User-Agent is cut to 500 characters', async (t) => {
  const res = await join(seed.campaign_id, { name: 'Vi', email: uniqueEmail('vi') }, '2001:DB8:0:0:0:0:0:9', `x${'y'.repeat(800)}`);
  t.is(res.status, 201, res.text);
  const row = await membership(res.body.creator_id, seed.campaign_id);
  t.is(row.join_ip, '2001:db8::9');
  t.is(row.join_user_agent.length, 500);
});

test('accepting an invitation (a join with its token) records the address too', async (t) => {
  const campaignId = (
    await createCampaign(h().db, {
      appId: seed.app_id,
      orgId: seed.org_id,
      name: 'Private',
      campaignType: 'private',
      commissionPercentage: 20,
      status: 'active',
    })
  ).id;
  const token = `inv_${randomBytes(24).toString('base64url')}`;
  await h()
    .db('invitations')
    .insert({
      campaign_id: campaignId,
      org_id: seed.org_id,
      email: uniqueEmail('inv'),
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + 86_400_000),
    });
  const ip = nextIp();
  const res = await join(campaignId, { name: 'Ina', email: uniqueEmail('ina'), invitation_token: token }, ip);
  t.is(res.status, 201, res.text);
  t.like(await membership(res.body.creator_id, campaignId), { join_ip: ip, join_user_agent: PHONE_UA });
});

test.serial(
  `the worker's prune forgets join addresses older than ${JOIN_SIGHTING_RETENTION_DAYS} days and keeps recent ones`,
  async (t) => {
    t.is(JOIN_SIGHTING_RETENTION_DAYS, 90);
    const joined = async (daysAgo: number) => {
      const res = await join(seed.campaign_id, { name: 'Old', email: uniqueEmail(`d${daysAgo}`) }, nextIp());
      t.is(res.status, 201, res.text);
      const row = await membership(res.body.creator_id, seed.campaign_id);
      await h()
        .db('creator_codes')
        .where('id', row.id)
        .update({ joined_at: h().db.raw('now() - make_interval(days => ?)', [daysAgo]) });
      return row.id as string;
    };
    const old = await joined(JOIN_SIGHTING_RETENTION_DAYS + 1);
    const recent = await joined(JOIN_SIGHTING_RETENTION_DAYS - 1);
    const fresh = await joined(0);
    const sighting = (id: string) => h().db('creator_codes').where('id', id).first('join_ip', 'join_user_agent', 'status', 'code');
    const oldBefore = await sighting(old);

    const job = startJoinSightingPrune(h().db, createLogger('silent', 'test'), 60_000); // its first pass runs at start
    t.teardown(() => job.stop());
    await waitFor(async () => (await sighting(old)).join_ip === null, 'the old join address forgotten', 10_000);
    await job.stop();
    t.deepEqual(await sighting(old), { ...oldBefore, join_ip: null, join_user_agent: null }, 'the membership itself stays');
    t.truthy((await sighting(recent)).join_ip, `${JOIN_SIGHTING_RETENTION_DAYS - 1} days: kept`);
    t.like(await sighting(fresh), { join_user_agent: PHONE_UA });
  },
);
