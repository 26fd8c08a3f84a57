// How the server writes an instant for people (pages, mails, the creator's commission states): one spelling
// everywhere, so a page and the text beside it never disagree.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The server's rendering of an instant, "26 Nov 2026, 13:05 UTC" (the browser replaces it with local time). */
export function formatDate(value: Date | string | number, withTime = true): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  return withTime ? `${day}, ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC` : day;
}
