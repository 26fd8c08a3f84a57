// A local SMTP server standing in for the mail provider: records every message, or refuses recipients on demand.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}
export interface SmtpStub {
  url: string;
  received: ReceivedMail[];
  refuse: boolean;
  close(): Promise<void>;
}

export async function startSmtpStub(): Promise<SmtpStub> {
  const stub: SmtpStub = { url: '', received: [], refuse: false, close: () => Promise.resolve() };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(stub.refuse ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        stub.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
