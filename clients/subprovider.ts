// The subscription provider's REST API, as far as we use it: promotional entitlement grants (the free-access
// mirror, v1) and the webhook integrations of a project (the webhook autowire, v2). Base URL from
// SUBPROVIDER_API_ROOT; tests point it at a local stub speaking the same wire format. Every call authenticates with
// the app's secret API key (`Authorization: Bearer sk_...`). v2 shapes (RevenueCat-style "Developer API 2.0"):
//   GET  v2/projects                                              -> {object: 'list', items: [{id, name}], next_page}
//   GET  v2/projects/{project_id}/integrations/webhooks           -> {object: 'list', items: [WebhookIntegration], next_page}
//   POST v2/projects/{project_id}/integrations/webhooks           {name, url, authorization_header?, environment?, event_types?, app_id?}
//   POST v2/projects/{project_id}/integrations/webhooks/{id}      the same fields, each optional (update)
// Errors are `{"object": "error", "type", "message", "retryable"}` (v1: `{"code", "message"}`). An error's text
// never carries the key or an authorization header we sent, even if the provider echoed it.

export interface PromotionalGrant {
  appUserId: string;
  entitlement: string;
  endTimeMs: number | null;
}

export interface ProviderProject {
  id: string;
  name: string;
}

export interface WebhookIntegration {
  id: string;
  name: string;
  url: string;
  /** 'production' | 'sandbox'; null = both. */
  environment: string | null;
  event_types: string[] | null;
  /** The provider's app the integration is scoped to; null = every app of the project. */
  app_id: string | null;
}

export interface WebhookIntegrationFields {
  name?: string;
  url?: string;
  authorization_header?: string | null;
  environment?: 'production' | 'sandbox' | null;
  event_types?: string[] | null;
  app_id?: string | null;
}

export class SubproviderError extends Error {
  /** null when no HTTP answer came (timeout, network). */
  readonly status: number | null;
  /** Worth repeating later: no answer, 5xx, 429, 423 (locked), or the provider said so. */
  readonly retryable: boolean;
  constructor(message: string, status: number | null, retryable: boolean) {
    super(message);
    this.name = 'SubproviderError';
    this.status = status;
    this.retryable = retryable;
  }
}

const MAX_PAGES = 20;

export function createSubproviderClient(apiRoot: string, secretKey: string, timeoutMs = 5000) {
  const base = apiRoot.endsWith('/') ? apiRoot : `${apiRoot}/`;
  const secrets = new Set([secretKey]);
  const keepOutOfErrors = (header: string | null | undefined) => {
    if (header) for (const s of [header, header.replace(/^Bearer\s+/i, '')]) secrets.add(s);
  };
  const scrub = (text: string) => [...secrets].reduce((t, s) => (s ? t.split(s).join('[redacted]') : t), text);

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = new URL(path.replace(/^\/+/, ''), base);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const what = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable';
      throw new SubproviderError(`subscription provider ${what}`, null, true);
    }
    const parsed = (await res.json().catch(() => undefined)) as { message?: unknown; retryable?: unknown } | undefined;
    if (!res.ok) {
      const detail = typeof parsed?.message === 'string' ? scrub(parsed.message).slice(0, 300) : undefined;
      const retryable = res.status >= 500 || res.status === 429 || res.status === 423 || parsed?.retryable === true;
      throw new SubproviderError(`subscription provider answered ${res.status}${detail ? `: ${detail}` : ''}`, res.status, retryable);
    }
    return parsed as T;
  }

  /** Every item of a v2 list, following `next_page` (bounded). */
  async function listAll<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | null | undefined = `${path}?limit=100`;
    for (let page = 0; next && page < MAX_PAGES; page += 1) {
      const list: { items?: T[]; next_page?: string | null } = await call('GET', next);
      items.push(...(list.items ?? []));
      next = list.next_page;
    }
    return items;
  }

  const webhooksPath = (projectId: string) => `v2/projects/${encodeURIComponent(projectId)}/integrations/webhooks`;

  return {
    /** POST /v1/subscribers/{app_user_id}/entitlements/{entitlement}/promotional */
    async grantPromotional(g: PromotionalGrant): Promise<void> {
      const body = g.endTimeMs === null ? { duration: 'lifetime' } : { end_time_ms: g.endTimeMs };
      await call(
        'POST',
        `v1/subscribers/${encodeURIComponent(g.appUserId)}/entitlements/${encodeURIComponent(g.entitlement)}/promotional`,
        body,
      );
    },

    /** GET /v2/projects: the projects this key can reach (a v2 secret key usually belongs to one). */
    async listProjects(): Promise<ProviderProject[]> {
      return (await listAll<ProviderProject>('v2/projects')).map((p) => ({ id: p.id, name: p.name }));
    },

    /** GET /v2/projects/{project_id}/integrations/webhooks (all pages). */
    async listWebhookIntegrations(projectId: string): Promise<WebhookIntegration[]> {
      return listAll<WebhookIntegration>(webhooksPath(projectId));
    },

    /** POST /v2/projects/{project_id}/integrations/webhooks */
    async createWebhookIntegration(
      projectId: string,
      fields: WebhookIntegrationFields & { name: string; url: string },
    ): Promise<WebhookIntegration> {
      keepOutOfErrors(fields.authorization_header);
      return call('POST', webhooksPath(projectId), fields);
    },

    /** POST /v2/projects/{project_id}/integrations/webhooks/{webhook_integration_id}: only the fields given change. */
    async updateWebhookIntegration(
      projectId: string,
      integrationId: string,
      fields: WebhookIntegrationFields,
    ): Promise<WebhookIntegration> {
      keepOutOfErrors(fields.authorization_header);
      return call('POST', `${webhooksPath(projectId)}/${encodeURIComponent(integrationId)}`, fields);
    },
  };
}

export type SubproviderClient = ReturnType<typeof createSubproviderClient>;
