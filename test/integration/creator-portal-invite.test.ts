// "Add email and invite" on the dashboard's creators page (docs/creator-portal.md "Creators without an email"): a
// creator with no address is shown as unable to sign in to the portal, with a form; a bad or taken address is
// refused beside the field with the typed text kept and nothing written; a good one sets the address and mails the
// portal's sign-in link, which signs the creator in; another organization's creator is 404.
import test from 'ava';
import { addCreatorCode } from '../../db/creators-writes.js';
import { Browser, inputValue } from '../helpers/browser.js';
import { latestSignInLink, mailsTo } from '../helpers/creator-mail.js';
import { confirmLink } from '../helpers/creator-portal.js';
import { signInDashboard } from '../helpers/dashboard.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { worker: false });

async function emaillessCreator(appId: string, campaignId: string, code: string): Promise<string> {
  const [row] = await h().db('creators').insert({ name: 'Seeded Sam' }).returning('id');
  await addCreatorCode(h().db, { appId, campaignId, creatorId: row.id, code, source: 'seed' });
  return row.id as string;
}

test(
  'a creator without an email: shown as unable to sign in; bad and ' +
    'taken addresses refused beside the field; a good one invites to the portal',
  async (t) => {
    const creatorId = await emaillessCreator(seed.app_id, seed.campaign_id, 'SAMSEED1');
    const dash = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
    const page = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators`);
    const row = new RegExp('<tr data-row="[^"]+">(?:(?!</tr>)[\\s\\S])*SAMSEED1[\\s\\S]*?</tr>').exec(page.text)?.[0] ?? '';
    t.true(row.includes('No email: cannot sign in to the creator portal.'), row);
    t.true(row.includes('Add email and invite'));
    const csrf = inputValue(row, 'csrf')!;
    const action = `${h().baseUrl}/dashboard/creators/${creatorId}/portal-invite`;

    const bad = await dash.browser.fetch(action, { form: { csrf, email: 'sam-at-example' } });
    t.is(bad.status, 422);
    t.true(bad.text.includes('value="sam-at-example"'), 'what was typed is kept');
    t.regex(bad.text, new RegExp(`id="portal-email-${seed.campaign_id}-${creatorId}-error" class="error">Enter the creator`));
    const seededEmail = (
      await h()
        .db('creator_codes as cc')
        .join('creators as c', 'c.id', 'cc.creator_id')
        .where('cc.campaign_id', seed.campaign_id)
        .whereNotNull('c.email')
        .first('c.email')
    ).email as string;
    const taken = await dash.browser.fetch(action, { form: { csrf, email: seededEmail.toUpperCase() } });
    t.is(taken.status, 409);
    t.regex(taken.text, /Another creator already uses this address/);
    t.is((await h().db('creators').where('id', creatorId).first()).email, null, 'nothing written');

    const email = `sam-${creatorId}@example.com`;
    const done = await dash.browser.fetch(action, { form: { csrf, email } });
    t.is(done.status, 303);
    t.is((await h().db('creators').where('id', creatorId).first()).email, email);
    const [mail] = await mailsTo(h().db, email);
    t.regex(mail!.subject, /invites you to the creator portal/);
    const link = await latestSignInLink(h().db, email);
    const creator = new Browser();
    t.is((await confirmLink(creator, link!)).status, 303);
    const home = await creator.fetch(`${h().baseUrl}/dashboard/creator`);
    t.true(home.text.includes('SAMSEED1'), 'the invited creator sees their code');
    const after = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators`);
    const afterRow = new RegExp('<tr data-row="[^"]+">(?:(?!</tr>)[\\s\\S])*SAMSEED1[\\s\\S]*?</tr>').exec(after.text)?.[0] ?? '';
    t.true(afterRow.includes('SAMSEED1'));
    t.false(afterRow.includes('No email'), 'no longer offered');
    t.is(
      (await dash.browser.fetch(action, { form: { csrf, email: `again-${email}` } })).status,
      409,
      'an address already set is not replaced',
    );
  },
);

test("another organization's creator is 404 and keeps no address", async (t) => {
  const other = await seedApp(h().db);
  const creatorId = await emaillessCreator(other.app_id, other.campaign_id, 'OTHERSAM');
  const dash = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  const page = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators`);
  const res = await dash.browser.fetch(`${h().baseUrl}/dashboard/creators/${creatorId}/portal-invite`, {
    form: { csrf: inputValue(page.text, 'csrf')!, email: `x-${creatorId}@example.com` },
  });
  t.is(res.status, 404);
  t.is((await h().db('creators').where('id', creatorId).first()).email, null);
});
