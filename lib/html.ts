// The few server-rendered pages (referral link fallbacks, the creator join page): self-contained documents with
// inline style and at most one inline script, allowed by a per-response nonce. Every interpolated value goes
// through escapeHtml; nothing is loaded from elsewhere.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no value can close the element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export interface Page {
  title: string;
  lang: string;
  /** Body markup, already escaped by the caller. */
  body: string;
  /** Inline script (static code: data reaches it through escaped attributes or a JSON block). */
  script?: string;
  /** Extra origin the script may fetch from (the join page posts to BASE_URL). */
  connectSrc?: string;
  /** Where forms may post: none by default; sign-in uses 'self'; consent lifts it (the answer redirects to the client). */
  formAction?: string | null;
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f5f5f7}
  main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
  h1{font-size:1.5rem;margin:0 0 .5rem} p{margin:.5rem 0} .muted{color:#6e6e73}
  .code{font:700 1.6rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em;padding:.75rem 1rem;background:#f0f0f5;border-radius:8px;display:inline-block;margin:.5rem 0}
  label{display:block;margin:.75rem 0 .25rem;font-weight:600}
  input{width:100%;padding:.6rem;border:1px solid #c7c7cc;border-radius:8px;font:inherit}
  button{margin-top:1.25rem;width:100%;padding:.75rem;border:0;border-radius:8px;background:#0071e3;color:#fff;font:600 1rem system-ui,sans-serif;cursor:pointer}
  button[disabled]{opacity:.6;cursor:default}
  .error{color:#b00020} [hidden]{display:none}`;

export function renderPage(page: Page, nonce: string): string {
  const script = page.script ? `\n<script nonce="${escapeHtml(nonce)}">${page.script}</script>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(page.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
${page.body}
</main>${script}
</body>
</html>
`;
}

/** Nothing but our own inline style and script may run; the page may only talk to `connectSrc`, post to `formAction`. */
export function pageSecurityPolicy(nonce: string, connectSrc?: string, formAction: string | null = "'none'"): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `connect-src 'self'${connectSrc ? ` ${connectSrc}` : ''}`,
    "img-src 'none'",
    "base-uri 'none'",
    ...(formAction === null ? [] : [`form-action ${formAction}`]),
    "frame-ancestors 'none'",
  ].join('; ');
}
