// A server-sent events reader for tests: opens the stream with fetch (cookie, Last-Event-ID), parses `id:` and
// `data:` fields as the EventSource spec does, and lets a test wait for messages.
export interface SseMessage {
  id: string | undefined;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every message received so far, in order. */
  messages: SseMessage[];
  /** Resolves once at least `n` messages arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves with the first message that satisfies `match`. */
  waitUntil(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** The response body as text, for a stream the server refused (4xx). */
  text(): Promise<string>;
  close(): void;
  /** Calls `listener` after each message arrives (it reads `messages`). */
  onMessage(listener: () => void): void;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal, redirect: 'manual' });
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  const ok = res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  let bodyText: Promise<string> | undefined;
  const ended = ok
    ? (async () => {
        const decoder = new TextDecoder();
        let buffer = '';
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            buffer += decoder.decode(chunk, { stream: true });
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              let id: string | undefined;
              const data: string[] = [];
              for (const line of block.split('\n')) {
                if (line.startsWith('id:')) id = line.slice(3).trim();
                else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
              }
              if (data.length) messages.push({ id, data: data.join('\n') });
              for (const w of waiters) w();
            }
          }
        } catch {
          /* aborted by close() */
        }
      })()
    : Promise.resolve();
  const wait = <T>(ready: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what}: got ${messages.length} messages: ${JSON.stringify(messages.map((m) => m.id))}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    status: res.status,
    headers: res.headers,
    messages,
    ended,
    waitFor: (n, timeoutMs = 20_000) =>
      wait(() => (messages.length >= n ? messages.slice() : undefined), timeoutMs, `waiting for ${n} messages`),
    waitUntil: (match, timeoutMs = 20_000) => wait(() => messages.find(match), timeoutMs, 'waiting for a matching message'),
    text: () => (bodyText ??= res.text()),
    close: () => abort.abort(),
    onMessage: (listener) => {
      waiters.add(listener);
    },
  };
}
