// The shell of every page we serve (dashboard, signed links, consent, join, referral-link fallbacks, errors):
// self-contained documents rendered by preact (escaping by construction), with our inline style and same-origin
// scripts admitted by a per-response nonce. The two raw insertions (the constant style sheet and JSON blocks with
// `<` escaped) live here and nowhere else; eslint.config.js refuses dangerouslySetInnerHTML in every other file.
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { VISUAL_STYLE } from './visual-style.js';

/** JSON for a `<script type="application/json">` block: `<` escaped so no value can close the element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * An `href`/`src` built from data: absolute http(s) URLs and our own root-relative paths pass; anything else
 * (`javascript:`, `data:`, `//host`, junk) answers undefined, so the attribute is left out and the link is inert.
 * Agent-writable URL fields accept any URI, so every data-built link goes through here (eslint.config.js).
 */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^\/(?![/\\])/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface Page {
  title: string;
  lang: string;
  body: ComponentChildren;
  /** Same-origin script files loaded with the nonce (api/dashboard/static-assets.ts serves them). */
  scripts?: string[];
  /** Extra origin the script may fetch from (the join page posts to BASE_URL). */
  connectSrc?: string;
  /** Where forms may post: none by default; sign-in uses 'self'; consent lifts it (the answer redirects to the client). */
  formAction?: string | null;
  /** Wide layout with a navigation header (the signed-in dashboard pages; api/view-kit/layout.tsx). */
  wide?: boolean;
}

// Colours: text and borders of controls keep 3:1 or more against white (WCAG 1.4.11); text 4.5:1 or more.
const STYLE =
  `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f5f5f7}
  main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
  h1{font-size:1.5rem;margin:0 0 .5rem} p{margin:.5rem 0} .muted{color:#5f5f64}
  a{color:#0058b0}
  .code{font:700 1.6rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em;` +
  `padding:.75rem 1rem;background:#f0f0f5;border-radius:8px;display:inline-block;margin:.5rem 0}
  label{display:block;margin:.75rem 0 .25rem;font-weight:600}
  input,select,textarea{width:100%;max-width:100%;padding:.6rem;` +
  `border:1px solid #767676;border-radius:8px;font:inherit;background:#fff;color:inherit}
  input[type=checkbox],input[type=radio]{width:auto;min-width:0;margin:.3rem 0 0;flex:none;accent-color:#0071e3}
  label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin:.4rem 0}
  [aria-invalid=true]{border-color:#b00020;border-width:2px}
  button,.button{display:inline-block;margin-top:1.25rem;width:100%;padding:.75rem;border:1px solid #0071e3;` +
  `border-radius:8px;background:#0071e3;color:#fff;font:600 1rem system-ui,sans-serif;cursor:pointer;text-align:center;` +
  `text-decoration:none}
  button.secondary,.button.secondary{background:#fff;color:#1d1d1f;border-color:#767676}
  button.danger,.button.danger{background:#c5221f;border-color:#c5221f;color:#fff}
  button.link{background:none;border:0;color:#0058b0;text-decoration:underline;padding:0;width:auto;font-weight:400}
  button[disabled]{opacity:.6;cursor:default}
  .error{color:#b00020} [hidden]{display:none}
  .field-error{color:#b00020;margin:.25rem 0 .5rem;font-weight:600}
  .flash{padding:.6rem .8rem;border-radius:8px;border-left:4px solid #0071e3;background:#eef6ff;margin:.5rem 0 1rem}
  .flash.bad{border-color:#b00020;background:#fdecea} .flash.ok{border-color:#1e7a34;background:#e9f6ec}
  .badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;` +
  `font-size:.85rem;font-weight:600;background:#ececf1;color:#3a3a3c;white-space:nowrap}
  .badge.ok{background:#e3f3e7;color:#1a6b2f} ` +
  `.badge.warn{background:#fff1dc;color:#7d4300} .badge.bad{background:#fde8e7;color:#a11d1b} ` +
  `.badge.info{background:#e6f0fb;color:#0b4f96}
  main.wide{max-width:64rem;margin:1.5rem auto} h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
  nav.top{display:flex;gap:.25rem 1rem;flex-wrap:wrap;align-items:center;` +
  `border-bottom:1px solid #e5e5ea;padding-bottom:.75rem;margin-bottom:1rem}
  nav.top a{padding:.15rem 0} ` +
  `nav.top a[aria-current=page]{font-weight:700;color:#1d1d1f;text-decoration:none;border-bottom:3px solid #0071e3}
  nav.top form{margin:0 0 0 auto} nav.top button{margin:0;width:auto;padding:.4rem .8rem}
  main.wide button,main.wide .button{width:auto;padding:.5rem 1rem;margin-top:.5rem} ` +
  `main.wide input,main.wide select{width:auto;min-width:16rem}
  main.wide input[type=checkbox],main.wide input[type=radio]{min-width:0;width:auto}
  main.wide textarea{min-width:16rem}
  .actions{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center} ` +
  `.actions button,.actions .button{margin-top:.5rem;width:auto;flex:1 1 auto}
  main.wide .actions button,main.wide .actions .button{flex:none}
  .table-scroll{overflow-x:auto;max-width:100%;margin:.5rem 0}
  table{border-collapse:collapse;width:100%;margin:.5rem 0} ` +
  `th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e5e5ea;vertical-align:top}
  td.num,th.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums} td time{white-space:nowrap}
  .done{color:#1e7a34;font-weight:600} .open{color:#9a4600;font-weight:600} ` +
  `.secret{font-family:ui-monospace,Menlo,Consolas,monospace;background:#fff7d6;padding:.5rem;border-radius:6px;word-break:break-all}
  code{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere} ` +
  `.notice{background:#eef6ff;padding:.5rem .75rem;border-radius:8px}
  fieldset{border:1px solid #c7c7cc;border-radius:8px;margin:.75rem 0;min-width:0}
  dialog{border:0;border-radius:12px;padding:1.5rem;max-width:min(28rem,calc(100vw - 2rem));box-shadow:0 8px 32px rgba(0,0,0,.25)}
  dialog::backdrop{background:rgba(0,0,0,.4)}
  pre{white-space:pre-wrap;word-break:break-all}
  .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
  .table-scroll{overflow-x:auto;max-width:100%} caption{text-align:left;font-weight:600;padding:.25rem 0}
  .why{min-width:11rem} .qr{width:10rem;height:10rem;display:block;margin:.5rem 0}
  button.copy{width:auto;margin:.25rem 0;padding:.35rem .8rem;font-size:.9rem} table.figures th{font-weight:400;width:45%}
  @media (max-width:40rem){
    main,main.wide{margin:0;padding:1rem;border-radius:0;box-shadow:none;overflow-wrap:anywhere}
    .table-scroll th,.table-scroll td{overflow-wrap:normal} td time{white-space:normal}
    main.wide input,main.wide select,main.wide textarea{min-width:0;width:100%}
    nav.top form{margin:0}
  }` +
  VISUAL_STYLE;

/** Data for a page's script: a JSON block the script parses (never spliced into code). */
export function JsonScript({ id, value }: { id: string; value: unknown }) {
  // eslint-disable-next-line no-restricted-syntax -- JSON with `<` escaped cannot close the element; entities would corrupt it
  return <script type="application/json" id={id} dangerouslySetInnerHTML={{ __html: jsonForHtml(value) }} />;
}

function Document({ page, nonce }: { page: Page; nonce: string }) {
  return (
    <html lang={page.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{page.title}</title>
        {/* eslint-disable-next-line no-restricted-syntax -- the constant style sheet: entities would corrupt its quotes */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main class={page.wide ? 'wide' : undefined}>{page.body}</main>
        {(page.scripts ?? []).map((src) => (
          <script nonce={nonce} src={safeUrl(src)} />
        ))}
      </body>
    </html>
  );
}

/** The one place the doctype is written. */
export function renderPage(page: Page, nonce: string): string {
  return `<!DOCTYPE html>\n${renderToString(<Document page={page} nonce={nonce} />)}\n`;
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
