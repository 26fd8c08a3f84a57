// A minimal browser for server-rendered pages: a cookie jar (name=value per host, Max-Age=0 deletes), manual
// redirects (so tests see each hop, and can stop at a client's redirect_uri), form posts, and hidden-field scraping.
export interface Hop {
  status: number;
  url: string;
  location?: string;
  text: string;
  headers: Headers;
}

export class Browser {
  readonly cookies = new Map<string, string>();

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(
    url: string,
    init: { method?: string; form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ): Promise<Hop> {
    const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
    const jar = this.cookieHeader();
    if (jar) headers.cookie = jar;
    let body: string | undefined;
    if (init.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    this.store(res);
    const location = res.headers.get('location') ?? undefined;
    return {
      status: res.status,
      url,
      location: location ? new URL(location, url).href : undefined,
      text: await res.text(),
      headers: res.headers,
    };
  }

  /** Follows redirects while `keepGoing(url)` holds; returns the last hop (a page, or a redirect it stopped at). */
  async follow(url: string, keepGoing: (next: string) => boolean = () => true, init: Parameters<Browser['fetch']>[1] = {}): Promise<Hop> {
    let hop = await this.fetch(url, init);
    for (let i = 0; i < 20 && hop.location && hop.status >= 300 && hop.status < 400 && keepGoing(hop.location); i += 1) {
      hop = await this.fetch(hop.location);
    }
    return hop;
  }
}

/** Value of the hidden (or any) input `name` in a page. */
export function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
  return tag
    ? /value="([^"]*)"/
        .exec(tag)?.[1]
        ?.replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
    : undefined;
}

/** The `action` of the first form in a page, absolute. */
export function formAction(html: string, base: string): string {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '';
  return new URL(action.replace(/&amp;/g, '&'), base).href;
}
