// A local stand-in for the subscription provider's REST API, speaking its wire format: Bearer secret key, JSON
// bodies; v1 promotional grants (`{"code", "message"}` errors) and the v2 project configuration the webhook autowire
// uses (projects, webhook integrations: list with `limit`/`starting_after`/`next_page`, create, update;
// `{"object": "error", "type", "message", "retryable"}` errors). Records every call and keeps the integrations, so a
// test can act as the provider and deliver an event with the Authorization header it was given.
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface StubIntegration {
  object: 'webhook_integration';
  id: string;
  project_id: string;
  name: string;
  url: string;
  authorization_header: string | null;
  environment: string | null;
  event_types: string[] | null;
  app_id: string | null;
  created_at: number;
}

export interface SubproviderStub {
  url: string;
  calls: RecordedCall[];
  /** Every call answers this status (after the key check). */
  failWith: number | null;
  /** Only v2 writes (create, update) answer this status. */
  failWritesWith: number | null;
  projects: { id: string; name: string }[];
  integrations: StubIntegration[];
  /** Page size cap of v2 lists (the real API clamps `limit` to 1..100). */
  pageSize: number;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

const WEBHOOK_FIELDS = ['name', 'url', 'authorization_header', 'environment', 'event_types', 'app_id'] as const;

export async function startSubproviderStub(secretKey: string): Promise<SubproviderStub> {
  const stub: SubproviderStub = {
    url: '',
    calls: [],
    failWith: null,
    failWritesWith: null,
    projects: [{ id: 'proj1ab2c3d4', name: 'Fit Habit' }],
    integrations: [],
    pageSize: 100,
    close: () => Promise.resolve(),
  };
  let nextId = 1;

  function send(res: ServerResponse, status: number, body: unknown) {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  }
  const v2Error = (res: ServerResponse, status: number, type: string, message: string) =>
    send(res, status, { object: 'error', type, message, retryable: status >= 500 || status === 429 });

  function list<T extends { id: string }>(res: ServerResponse, url: URL, items: T[]) {
    const limit = Math.min(stub.pageSize, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));
    const after = url.searchParams.get('starting_after');
    const start = after ? items.findIndex((i) => i.id === after) + 1 : 0;
    const page = items.slice(start, start + limit);
    const more = start + limit < items.length;
    send(res, 200, {
      object: 'list',
      items: page,
      next_page: more ? `${url.pathname}?starting_after=${page.at(-1)!.id}` : null,
      url: url.pathname,
    });
  }

  function v2(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown) {
    if (req.method === 'GET' && url.pathname === '/v2/projects') return list(res, url, stub.projects);
    const m = /^\/v2\/projects\/([^/]+)\/integrations\/webhooks(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m) return v2Error(res, 404, 'resource_missing', 'Not found.');
    const projectId = decodeURIComponent(m[1]!);
    if (!stub.projects.some((p) => p.id === projectId)) return v2Error(res, 404, 'resource_missing', 'Project not found.');
    const ofProject = stub.integrations.filter((i) => i.project_id === projectId);
    if (req.method === 'GET' && !m[2])
      return list(
        res,
        url,
        ofProject.map(({ authorization_header: _hidden, ...i }) => i),
      );
    if (req.method !== 'POST') return v2Error(res, 405, 'invalid_request', 'Method not allowed.');
    if (stub.failWritesWith) return v2Error(res, stub.failWritesWith, 'server_error', 'Service temporarily unavailable.');
    const fields = (body ?? {}) as Partial<StubIntegration>;
    if (!m[2]) {
      if (typeof fields.name !== 'string' || typeof fields.url !== 'string')
        return v2Error(res, 400, 'parameter_error', 'name and url are required.');
      const created: StubIntegration = {
        object: 'webhook_integration',
        id: `wh_${nextId++}`,
        project_id: projectId,
        name: fields.name,
        url: fields.url,
        authorization_header: fields.authorization_header ?? null,
        environment: fields.environment ?? null,
        event_types: fields.event_types ?? null,
        app_id: fields.app_id ?? null,
        created_at: Date.now(),
      };
      stub.integrations.push(created);
      return send(res, 201, { ...created, authorization_header: undefined });
    }
    const existing = ofProject.find((i) => i.id === decodeURIComponent(m[2]!));
    if (!existing) return v2Error(res, 404, 'resource_missing', 'Webhook integration not found.');
    for (const k of WEBHOOK_FIELDS) if (k in fields) Object.assign(existing, { [k]: fields[k] });
    return send(res, 200, { ...existing, authorization_header: undefined });
  }

  const server: Server = createServer((req, res) => {
    void readJson(req).then((body) => {
      stub.calls.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      const url = new URL(req.url ?? '/', 'http://stub');
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return url.pathname.startsWith('/v2/')
          ? v2Error(res, 401, 'authentication_error', 'Invalid API key.')
          : send(res, 401, { code: 7225, message: 'Invalid API key.' });
      }
      if (stub.failWith) {
        return url.pathname.startsWith('/v2/')
          ? v2Error(res, stub.failWith, 'server_error', 'Internal server error.')
          : send(res, stub.failWith, { code: 7110, message: 'Internal server error.' });
      }
      if (url.pathname.startsWith('/v2/')) return v2(req, res, url, body);
      if (req.method === 'POST' && /^\/v1\/subscribers\/[^/]+\/entitlements\/[^/]+\/promotional$/.test(url.pathname)) {
        return send(res, 201, { subscriber: { entitlements: {} } });
      }
      return send(res, 404, { code: 7259, message: 'Not found.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}
