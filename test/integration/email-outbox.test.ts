// Invitation emails leave through the outbox: with SMTP configured the worker's sender delivers each one exactly
// once to the mail server (a local stub speaking SMTP); a refusal is retried later and never leaks the SMTP URL.
import test from 'ava';
import { deliverDueEmails } from '../../actions/email-outbox.js';
import { createSmtpTransport } from '../../clients/smtp.js';
import { createLogger } from '../../runtime/logger.js';
import { startOutboxSender } from '../../jobs/outbox-sender.js';
import { request } from '../helpers/http.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { startSmtpStub, type SmtpStub } from '../stubs/smtp.js';

const { h, seed } = useSeededHarness(test, { worker: false });
let smtp: SmtpStub;
test.before(async () => {
  smtp = await startSmtpStub();
});
test.after.always(async () => {
  await smtp?.close();
});

const invite = (email: string) =>
  request(h().baseUrl, 'POST', `/api/agent/campaigns/${seed.campaign_id}/invite`, { token: seed.agent_key, body: { email, name: 'Ann' } });

test.serial('the sender delivers a queued invitation once, with the join link, and marks it sent', async (t) => {
  const res = await invite('ann@example.com');
  t.is(res.status, 201, res.text);
  const transport = createSmtpTransport(smtp.url, 'svc <no-reply@svc.test>');
  const sender = startOutboxSender(h().db, transport, createLogger('silent'), 100);
  try {
    for (let i = 0; i < 50 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await sender.stop();
    transport.close();
  }
  t.is(smtp.received.length, 1);
  t.deepEqual(smtp.received[0]!.to, ['ann@example.com']);
  t.regex(smtp.received[0]!.raw.replace(/=\r?\n/g, ''), new RegExp(`/join/${seed.campaign_id}\\?invitation_token=`));
  const row = await h().db('email_outbox').where('to_address', 'ann@example.com').first();
  t.like(row, { status: 'sent', attempts: 1 });
  t.is(await deliverDueEmails({ db: h().db, send: createSmtpTransport(smtp.url, 'x <x@x.test>') }), 0, 'nothing left to send twice');
});

test.serial('a refused delivery stays queued for a later attempt, with an error that does not carry the SMTP URL', async (t) => {
  await invite('bob@example.com');
  smtp.refuse = true;
  try {
    const secretUrl = smtp.url.replace('smtp://', 'smtp://mailuser:s3cretpass@');
    const sent = await deliverDueEmails({ db: h().db, send: createSmtpTransport(secretUrl, 'svc <no-reply@svc.test>') });
    t.is(sent, 0);
  } finally {
    smtp.refuse = false;
  }
  const row = await h().db('email_outbox').where('to_address', 'bob@example.com').first();
  t.is(row.status, 'queued');
  t.is(row.attempts, 1);
  t.truthy(row.last_error);
  t.false(String(row.last_error).includes('s3cretpass'));
  t.true(new Date(row.next_attempt_at).getTime() > Date.now());
});
