// The creators page's batch invitation form, as the body of svc_invite_creator's handler (the REST row in
// api/dashboard/routes.ts).
import { parseCreatorBatch } from '../../lib/creator-batch.js';
import { MAX_BATCH } from '../agent/invitations.js';

/** The batch form's textarea (`batch`) becomes `creators`; the form's message and language apply to every line. */
export function inviteForm(fields: Record<string, unknown>): Record<string, unknown> {
  if (typeof fields.batch !== 'string') return fields;
  const message = typeof fields.message === 'string' ? fields.message : undefined;
  const creators = parseCreatorBatch(fields.batch, MAX_BATCH, message);
  const lang = typeof fields.lang === 'string' ? fields.lang : undefined;
  return { creators: lang ? creators.map((c) => ({ lang, ...c })) : creators };
}

