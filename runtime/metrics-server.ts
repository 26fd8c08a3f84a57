// A minimal HTTP server for a process without the API: GET /metrics (Prometheus text) and GET /healthz.
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export async function serveMetrics(registry: Registry, port: number, host: string): Promise<{ server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`);
        },
      );
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"detail":"Not Found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
