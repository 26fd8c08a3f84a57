// A loopback TCP proxy in front of PostgreSQL that can drop the one connection carrying a chosen statement: the
// client's bytes are watched (the wire protocol sends the SQL text as it is) and, once armed, the first message
// holding the text closes both sides before it reaches the server. The pool then sees what a dropped database
// connection looks like in production ("Connection terminated unexpectedly"); every other statement passes.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface PgCutProxy {
  /** The database URL through the proxy. */
  url: string;
  /** Drop the connection of the next statement whose text holds `text` (once). */
  cutNext(text: string): void;
  /** How many connections were dropped so far. */
  cuts(): number;
  close(): Promise<void>;
}

export async function startPgCutProxy(databaseUrl: string): Promise<PgCutProxy> {
  const target = new URL(databaseUrl);
  let armed: Buffer | null = null;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(armed)) {
        armed = null;
        cuts += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cutNext: (text) => {
      armed = Buffer.from(text);
    },
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
