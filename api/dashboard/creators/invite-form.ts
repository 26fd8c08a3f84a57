// The creators page's batch invitation form, as the body of svc_invite_creator's handler (the REST row in
// api/dashboard/routes.ts).
import { parseCreatorBatch } from '../../../lib/creator-batch.js';
import { textOf, type FlashMessage } from '../../view-kit/ui.js';
import { MAX_BATCH } from '../../agent/invitations.js';

/** The batch form's textarea (`batch`) becomes `creators`; the form's message and language apply to every line. */
export function inviteForm(fields: Record<string, unknown>): Record<string, unknown> {
  if (typeof fields.batch !== 'string') return fields;
  const message = typeof fields.message === 'string' ? fields.message : undefined;
  const creators = parseCreatorBatch(fields.batch, MAX_BATCH, message);
  const lang = typeof fields.lang === 'string' ? fields.lang : undefined;
  return { creators: lang ? creators.map((c) => ({ lang, ...c })) : creators };
}

interface ItemResult {
  email?: unknown;
  ok?: unknown;
  detail?: unknown;
  error?: unknown;
}

/** What the creators page says after an invite: for a batch, every line's outcome in the order given. */
export function inviteOutcome(answer: Record<string, unknown>): FlashMessage {
  if (!Array.isArray(answer.results))
    return { tone: 'ok', text: `Invitation sent${typeof answer.email === 'string' ? ` to ${answer.email}` : ''}.` };
  const results = answer.results as ItemResult[];
  const failed = results.filter((r) => !r.ok).length;
  const sent = results.length - failed;
  const lines = results.map(
    (r) => `${textOf(r.email) || '(no email)'}: ${r.ok ? 'invited' : `not invited. ${textOf(r.detail, textOf(r.error))}`}`,
  );
  const text =
    failed === 0 ? `All ${sent} invitations sent.` : `${sent} of ${results.length} invitations sent; ${failed} line(s) were not sent:`;
  return { tone: failed === 0 ? 'ok' : 'bad', text, lines };
}
