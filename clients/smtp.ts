// The SMTP transport of the email outbox (SMTP_URL), built on nodemailer. Errors name the failure, never the URL
// (it can carry a password).
import nodemailer from 'nodemailer';
import type { EmailTransport } from '../db/email-outbox.js';

export function createSmtpTransport(smtpUrl: string, from: string): EmailTransport & { close(): void } {
  const transporter = nodemailer.createTransport(smtpUrl);
  const send: EmailTransport = async (email) => {
    try {
      await transporter.sendMail({
        from,
        to: email.to_address,
        subject: email.subject,
        text: email.body_text,
        ...(email.body_html ? { html: email.body_html } : {}),
      });
    } catch (err) {
      throw new Error(`SMTP delivery failed: ${(err as { code?: string }).code ?? (err instanceof Error ? err.name : 'error')}`);
    }
  };
  return Object.assign(send, { close: () => transporter.close() });
}
