// A loopback reverse proxy that adds `Authorization: Bearer <token>` to every request and streams the answer back
// unchanged (SSE included). For clients that cannot send headers themselves: the MCP conformance runner connects to
// a server URL only. The service gets no test-only setting for this: what it serves is what production serves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  url: string;
  close(): Promise<void>;
}

export async function startBearerProxy(target: string, token: string): Promise<BearerProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // Host and Origin stay as the client sent them: the service judges them, not the proxy.
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
