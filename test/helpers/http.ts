// Small fetch wrappers so tests read as HTTP conversations.
export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* plain text answers (429 page, metrics) stay text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}
