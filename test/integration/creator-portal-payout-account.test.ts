// The creator portal's payout account (issue 30 wired into issue 29's portal): a signed-in creator connects where
// their payouts go from a campaign page (test mode here: test/integration/payouts-stripe.test.ts drives Stripe's
// stub through the same functions); the POST needs the creator session's CSRF token and no other credential reaches it.
import test from 'ava';
import { recordBankPayout } from '../../db/creator-bank-payouts.js';
import { inputValue } from '../helpers/browser.js';
import { signInCreator } from '../helpers/creator-portal.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { useHarness } from '../helpers/harness.js';
import { seedAccount } from '../helpers/seed.js';

const h = useHarness(test, { worker: false, env: { TRUST_PROXY: 'true' } });
const url = (p: string) => `${h().baseUrl}${p}`;

test("a creator connects a payout account from the campaign page: refused without the session's CSRF token, then ready", async (t) => {
  const seed = await seedAccount(h().db, h().baseUrl);
  const joined = await h()
    .db('creator_codes as cc')
    .join('creators as c', 'c.id', 'cc.creator_id')
    .where({ 'cc.campaign_id': seed.campaign_id, 'cc.code': seed.creator_code })
    .first('c.id', 'c.email');
  const app = {
    creator_id: joined.id as string,
    campaign_id: seed.campaign_id,
    user_email: seed.user_email,
    user_password: seed.user_password,
  };
  const email = joined.email as string;
  const creator = await signInCreator(h().baseUrl, h().db, email, '198.51.100.77');
  const campaignUrl = url(`/dashboard/creator/campaigns/${app.campaign_id}`);
  const before = await creator.browser.fetch(campaignUrl);
  t.is(before.status, 200);
  t.regex(before.text, /No payout account connected: your earnings stay payable until you connect one\./);
  t.regex(before.text, /Connect a payout account/);

  const connect = url('/dashboard/creator/payout-account/connect');
  const forged = await creator.browser.fetch(connect, { form: { csrf: 'forged', country: 'US' } });
  t.is(forged.status, 403);
  t.is(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), undefined, 'nothing opened');

  const dash = await signInDashboard(h().baseUrl, app.user_email, app.user_password);
  const asOwner = await dash.browser.fetch(connect, { form: { csrf: inputValue(before.text, 'csrf') ?? '', country: 'US' } });
  t.is(asOwner.status, 401, 'a dashboard session is not a creator');

  const landed = await creator.browser.follow(connect, () => true, {
    form: { csrf: inputValue(before.text, 'csrf') ?? '', country: 'US' },
  });
  t.is(landed.status, 200, landed.text.slice(0, 300));
  t.regex(landed.url, /\/dashboard\/creator\?payouts=ready$/);
  t.like(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), { provider: 'test', country: 'US' });
  const after = await creator.browser.fetch(campaignUrl);
  t.regex(after.text, /Ready: payouts are sent to your connected account\./);
  t.notRegex(after.text, /Connect a payout account/);

  // The Connect webhook's record of the account's own bank payouts (payouts-stripe.test.ts delivers them signed) is shown.
  await recordBankPayout(h().db, {
    id: 'po_portal_1',
    creatorId: app.creator_id,
    amountMicros: 12_340_000,
    currency: 'usd',
    status: 'failed',
    failureMessage: 'The bank account was closed.',
    arrivalAt: null,
  });
  const bank = await creator.browser.fetch(campaignUrl);
  t.regex(bank.text, /12\.34 USD: failed: The bank account was closed\./);
});
