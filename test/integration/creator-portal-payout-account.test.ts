// The creator portal's payout account (issue 30 wired into issue 29's portal): a signed-in creator connects where
// their payouts go from a campaign page (test mode here: test/integration/payouts-stripe.test.ts drives Stripe's
// stub through the same functions); the POST needs the creator session's CSRF token and no other credential reaches it.
import test from 'ava';
import { recordBankPayout } from '../../db/creator-bank-payouts-writes.js';
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
  // Where the creator decides: the test-mode label stands before connecting, and the country is a select of the one list.
  t.regex(before.text, /<p id="payout-provider" class="notice"><strong>Test mode: no real money moves\./);
  t.regex(before.text, /<select id="payout-country" name="country"[^>]*>.*<option value="DE">Germany<\/option>/s);
  t.regex(before.text, /<option value="US" selected>United States<\/option>/);

  const connect = url('/dashboard/creator/payout-account/connect');
  const forged = await creator.browser.fetch(connect, { form: { csrf: 'forged', country: 'US' } });
  t.is(forged.status, 403);
  t.is(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), undefined, 'nothing opened');

  const dash = await signInDashboard(h().baseUrl, app.user_email, app.user_password);
  const asOwner = await dash.browser.fetch(connect, { form: { csrf: inputValue(before.text, 'csrf') ?? '', country: 'US' } });
  t.is(asOwner.status, 401, 'a dashboard session is not a creator');

  // A country off the list is answered inside the portal: 422, the message beside the select, nothing opened.
  const refused = await creator.browser.fetch(connect, { form: { csrf: inputValue(before.text, 'csrf') ?? '', country: 'ZZ' } });
  t.is(refused.status, 422);
  t.regex(refused.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(refused.text, /<nav class="top" aria-label="Creator portal">/, "inside the portal's shell");
  t.regex(refused.text, /aria-invalid="true" aria-describedby="payout-country-error"/);
  t.regex(
    refused.text,
    /<p class="field-error" id="payout-country-error">Choose the country of your bank account from the list: payouts cannot be sent to 'ZZ'\.<\/p>/, // long-line: one regular expression
  );
  t.regex(refused.text, /Test mode: no real money moves/);
  t.is(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), undefined, 'nothing opened');
  const page = await creator.browser.fetch(url('/dashboard/creator/payout-account'));
  t.is(page.status, 200);
  t.regex(page.text, /<h1>Payout account<\/h1>/);
  t.notRegex(page.text, /class="field-error"/);

  const landed = await creator.browser.follow(connect, () => true, {
    form: { csrf: inputValue(before.text, 'csrf') ?? '', country: 'US' },
  });
  t.is(landed.status, 200, landed.text.slice(0, 300));
  t.regex(landed.url, /\/dashboard\/creator\/payout-account\?from=onboarding$/);
  t.regex(landed.text, /You are back from setting up payouts: your payout account is ready\./);
  t.like(await h().db('payout_accounts').where('creator_id', app.creator_id).first(), { provider: 'test', country: 'US' });
  const after = await creator.browser.fetch(campaignUrl);
  t.regex(after.text, /Ready: payouts are sent to your connected account\./);
  t.notRegex(after.text, /Connect a payout account/);

  // Back from onboarding with something still due (as Stripe's account.updated would store it): the page says what.
  await h()
    .db('payout_accounts')
    .where('creator_id', app.creator_id)
    .update({ transfers_active: false, requirements_due: JSON.stringify(['external_account']) });
  const incomplete = await creator.browser.fetch(url('/dashboard/creator/payout-account?from=onboarding'));
  t.regex(incomplete.text, /your payout account is not ready yet\. Still needed:/);
  t.regex(incomplete.text, /<li>transfers are not active yet<\/li><li>information is still due \(external_account\)<\/li>/);
  t.regex(incomplete.text, /Continue setting up payouts/);
  t.regex(incomplete.text, /<option value="US" selected>United States<\/option>/, "the account's country is kept");
  await h()
    .db('payout_accounts')
    .where('creator_id', app.creator_id)
    .update({ transfers_active: true, requirements_due: JSON.stringify([]) });

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
