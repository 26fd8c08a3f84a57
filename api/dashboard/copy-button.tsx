// A "Copy" button for a value shown on a page (a URL, a key, a code snippet): hidden until the page's script
// (api/dashboard/browser/copy-buttons.js) shows it, so without JavaScript the value is simply there to select.
export const COPY_SCRIPT = '/dashboard/static/copy-buttons.js';

export const CopyButton = ({ target, label = 'Copy' }: { target: string; label?: string }) => (
  <button type="button" class="copy" data-copy={target} hidden>{label}</button>
);
