// The human answers of a referral link when there is nothing to redirect to: an unknown link, or an app that has
// no store or web URL yet (the visitor is told to enter the code by hand; the click is already recorded).
import { isValidCodeLength } from '../../lib/codes.js';
import type { Page } from '../view-kit/html.js';

/** `code` is named only when it could be a code at all. */
export function unknownLinkPage(code: string): Page {
  return {
    title: 'Link not found',
    lang: 'en',
    body: (
      <>
        <h1>Link not found</h1>
        <p>
          There is no referral link
          {isValidCodeLength(code) ? (
            <>
              {' '}
              for the code <strong>{code}</strong>
            </>
          ) : null}{' '}
          at this address.
        </p>
        <p class="muted">Check the link you were given, or ask the creator who shared it for their code.</p>
      </>
    ),
  };
}

/** `code` absent: the link's campaign is not running, so there is no code worth entering. */
export function enterCodePage(appName: string, code: string | undefined): Page {
  const body = code ? (
    <>
      <h1>{appName}</h1>
      <p>Open {appName} and enter this code when the app asks for one:</p>
      <p class="code">{code}</p>
    </>
  ) : (
    <>
      <h1>{appName}</h1>
      <p>This referral offer is not running right now. You can still open {appName} as usual.</p>
    </>
  );
  return { title: appName, lang: 'en', body };
}
