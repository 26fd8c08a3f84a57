// The words of an owner's digest of new commission reviews (lib/owner-review-digest.ts): held first, each line with
// creator, campaign, app, amount, held or flagged, and every signal's evidence; the queue's link; "and N more".
import test from 'ava';
import { composeOwnerDigest, type OwnerDigestReview } from '../../lib/owner-review-digest.js';

const review = (over: Partial<OwnerDigestReview>): OwnerDigestReview => ({
  id: 'rev_1',
  action: 'flag',
  creator_name: 'Ana',
  campaign_name: 'Spring',
  app_name: 'Fit',
  amount_micros: 2_990_000,
  signals: [{ signal: 'install_farm', evidence: '4 installs from 203.0.113.7 with one device model in 12 minutes.' }],
  created_at: new Date('2026-11-29T10:00:00Z'),
  ...over,
});

test('held before flagged, each with its evidence in words and the queue link', (t) => {
  const mail = composeOwnerDigest(
    'Acme',
    [
      review({ id: 'rev_f' }),
      review({
        id: 'rev_h',
        action: 'hold',
        creator_name: 'Bo',
        signals: [{ signal: 'self_referral', evidence: "The purchaser's email is the creator's own address." }],
      }),
    ],
    { queue: 'https://dash.example/dashboard/reviews' },
  );
  t.is(mail.subject, 'Acme: 2 commissions to review (1 held, 1 flagged)');
  t.true(mail.body.indexOf('Bo, Spring (Fit): $2.99 USD commission HELD until you decide') < mail.body.indexOf('Ana, Spring (Fit)'));
  t.regex(mail.body, /self referral: The purchaser's email is the creator's own address\./);
  t.regex(mail.body, /install farm: 4 installs from 203\.0\.113\.7 with one device model in 12 minutes\./);
  t.regex(mail.body, /flagged \(paid as usual unless you void it\)/);
  t.regex(mail.body, /review queue: https:\/\/dash\.example\/dashboard\/reviews/);
});

test('one review, and more than a mail lists', (t) => {
  const one = composeOwnerDigest('Acme', [review({ action: 'hold' })], { queue: 'q' });
  t.is(one.subject, 'Acme: 1 commission to review (1 held)');
  const more = composeOwnerDigest('Acme', [review({})], { queue: 'q' }, 3);
  t.is(more.subject, 'Acme: 4 commissions to review (1 flagged)');
  t.regex(more.body, /And 3 more in the review queue\./);
});
