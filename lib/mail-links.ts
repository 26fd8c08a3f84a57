// The links a mail carries, read from its text: what `svc mail`, the dev mailbox page and svc dev's mail log show, so
// a developer follows a verification, reset, invitation or sign-in link without a mail server. Pure.

const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+/g;

/** Every http(s) URL in the text, in order, once each (trailing sentence punctuation left out). */
export function linksIn(text: string): string[] {
  const found = (text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(/[.,;:!?]+$/, ''));
  return [...new Set(found)];
}
