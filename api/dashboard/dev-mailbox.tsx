// GET /dashboard/dev/mailbox: under `svc dev` only (ApiDeps.devMode, which no variable sets; the route is not even
// mounted elsewhere), the outbox as a mailbox, so a developer verifies a sign-up or follows a reset or invitation
// link without a mail server or a database client. The links are live single-use tokens, so the page answers only a
// client on this machine: the connection, the client address (X-Forwarded-For under TRUST_PROXY, which svc dev sets)
// and the Host header (a DNS-rebound name is not loopback) must all be loopback.
import { isIP } from 'node:net';
import { listOutboxMails } from '../../db/email-outbox.js';
import { safeUrl } from '../view-kit/html.js';
import { linksIn } from '../../lib/mail-links.js';
import { LocalTime } from '../view-kit/ui.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';

export const DEV_MAILBOX_PATH = '/dashboard/dev/mailbox';

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(ip) === 4) return ip.startsWith('127.');
  return ip === '::1';
}

function isLoopbackHost(host: string): boolean {
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  return name === 'localhost' || isLoopbackAddress(name);
}

const when = (d: Date) => <LocalTime at={d} />;

export async function devMailbox(ctx: AppContext): Promise<void> {
  if (
    !isLoopbackAddress(ctx.req.socket.remoteAddress) ||
    !isLoopbackAddress(ctx.state.clientIp) ||
    !isLoopbackHost(ctx.req.headers.host ?? '') ||
    !isLoopbackHost(ctx.host)
  ) {
    sendPage(ctx, 403, {
      title: 'Dev mailbox',
      lang: 'en',
      body: (
        <>
          <h1>Dev mailbox</h1>
          <p>The dev mailbox answers only on this machine (a loopback address).</p>
        </>
      ),
    });
    return;
  }
  const to = typeof ctx.query.to === 'string' && ctx.query.to.trim() ? ctx.query.to.trim() : undefined;
  const mails = await listOutboxMails(ctx.deps.db, { to, limit: 50 });
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  sendPage(ctx, 200, {
    title: 'Dev mailbox',
    lang: 'en',
    wide: true,
    formAction: "'self'",
    body: (
      <>
        <h1>Dev mailbox</h1>
        <p class="muted">
          Every mail the service wrote to its outbox, newest first (the latest 50). Only <code>svc dev</code> serves this page, and only to
          this machine; the same mails are printed in its terminal and by <code>npx svc mail --to EMAIL --json</code>.
        </p>
        <form method="get" action={DEV_MAILBOX_PATH}>
          <label for="to">Address</label>
          <input id="to" name="to" type="email" value={to ?? ''} /> <button type="submit">Show</button>
        </form>
        {mails.length === 0 ? (
          <p>No mail{to ? ` to ${to}` : ''} yet.</p>
        ) : (
          mails.map((m) => (
            <article class="mail" data-to={m.to_address}>
              <h2>{m.subject}</h2>
              <p class="muted">
                To {m.to_address} · {when(m.created_at)} · <span data-status={m.status}>{m.status}</span>
              </p>
              <ul>
                {linksIn(m.body_text).map((l) => (
                  <li>
                    <a href={safeUrl(l)}>{l}</a>
                  </li>
                ))}
              </ul>
              <details>
                <summary>Text</summary>
                <pre>{m.body_text}</pre>
              </details>
            </article>
          ))
        )}
      </>
    ),
  });
}
