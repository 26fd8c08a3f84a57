// The human answers of a referral link when there is nothing to redirect to: an unknown link, or an app that has
// no store or web URL yet (the visitor is told to enter the code by hand; the click is already recorded).
import { isValidCodeLength } from '../../lib/codes.js';
import { escapeHtml, type Page } from '../../lib/html.js';

/** `code` is named only when it could be a code at all. */
export function unknownLinkPage(code: string): Page {
  const which = isValidCodeLength(code) ? ` for the code <strong>${escapeHtml(code)}</strong>` : '';
  return {
    title: 'Link not found',
    lang: 'en',
    body: `<h1>Link not found</h1>
<p>There is no referral link${which} at this address.</p>
<p class="muted">Check the link you were given, or ask the creator who shared it for their code.</p>`,
  };
}

/** `code` absent: the link's campaign is not running, so there is no code worth entering. */
export function enterCodePage(appName: string, code: string | undefined): Page {
  const body = code
    ? `<h1>${escapeHtml(appName)}</h1>
<p>Open ${escapeHtml(appName)} and enter this code when the app asks for one:</p>
<p class="code">${escapeHtml(code)}</p>`
    : `<h1>${escapeHtml(appName)}</h1>
<p>This referral offer is not running right now. You can still open ${escapeHtml(appName)} as usual.</p>`;
  return { title: appName, lang: 'en', body };
}
