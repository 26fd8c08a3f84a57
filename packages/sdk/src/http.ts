// The client API transport: one JSON request per call, the SDK key as a bearer token. Fetch is injected (the
// platform's global by default), so no DOM or Node type leaks into the core.

/** The part of the Fetch API the SDK uses; the global fetch of browsers, React Native and Node 18+ fits. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    signal?: unknown;
  },
) => Promise<{ status: number; text(): Promise<string> }>;

/** What initialize and reportPurchase throw: `status` null for a network failure; `retryable` for 5xx (503 first). */
export class SvcError extends Error {
  readonly status: number | null;
  readonly retryable: boolean;
  readonly detail: unknown;
  constructor(message: string, status: number | null, detail?: unknown) {
    super(message);
    this.name = 'SvcError';
    this.status = status;
    this.retryable = status === null || status === 429 || status >= 500;
    this.detail = detail;
  }
}

/** An error's message, whatever was thrown (answers carry it as `message` or `error`). */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface Transport {
  /** Resolves with the 2xx body; rejects with SvcError otherwise. */
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  timeoutMs: number;
}

interface AbortLike {
  abort(): void;
  signal: unknown;
}
declare const AbortController: (new () => AbortLike) | undefined;

export function createTransport(o: TransportOptions): Transport {
  const base = o.baseUrl.replace(/\/+$/, '');
  return {
    async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { Authorization: `Bearer ${o.apiKey}`, Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const abort = typeof AbortController === 'function' ? new AbortController() : null;
      const timer = abort ? setTimeout(() => abort.abort(), o.timeoutMs) : null;
      let status: number;
      let text: string;
      try {
        const res = await o.fetch(`${base}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: abort?.signal,
        });
        status = res.status;
        text = await res.text();
      } catch (err) {
        throw new SvcError(`svc: network error on ${path}: ${messageOf(err)}`, null);
      } finally {
        if (timer) clearTimeout(timer);
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text; // the rate limiter's 429 is a plain page
      }
      if (status >= 200 && status < 300) return parsed as T;
      const detail = parsed && typeof parsed === 'object' && 'detail' in parsed ? parsed.detail : parsed;
      throw new SvcError(`svc: ${path} answered ${status}${typeof detail === 'string' ? `: ${detail}` : ''}`, status, detail);
    },
  };
}

declare function setTimeout(handler: () => void, ms: number): unknown;
declare function clearTimeout(id: unknown): void;
