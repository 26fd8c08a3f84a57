// GET /dashboard/free-codes (?app=): an app's free-access codes with seats, duration and state (the agent API's
// free-code rows), a form creating one (POST /api/apps/{app_id}/free-codes, svc_create_free_code's handler: the
// creator-code rules and 409 when the code is taken) and a block / unblock button per code
// (POST /api/apps/{app_id}/free-codes/{id}/block).
import { StatePill } from '../../view-kit/visual.js';
import { ConfirmForm } from '../../view-kit/confirm.js';
import { DANGERS } from '../dangers.js';
import { listFreeCodes } from '../../../db/free-access.js';
import { freeCodeView } from '../../agent/free-codes.js';
import type { AppContext } from '../../context.js';
import { pickApp, when } from '../apps/app-picker.js';
import type { FieldProblem } from '../../../errors/http-errors.js';
import { cleanupCode, CODE_MAX_LENGTH, CODE_MIN_LENGTH, isValidCodeLength } from '../../../lib/codes.js';
import { SAID, type FormWords } from '../../view-kit/form-errors.js';
import { ButtonForm, dashboardPage, OrgLink, orgLink, PostForm, stateFor, Table } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { Field } from '../../view-kit/ui.js';

const wholeNumber = (what: string) => `Enter a whole number from 0 to 1,000,000, or leave it empty ${what}.`;

/** The create form's words: labels, and each rule as a person reads it (the code's length rule is lib/codes.ts's). */
export const FREE_CODE_WORDS = {
  labels: {
    code: 'Code',
    name: 'Name (optional)',
    entitlement: 'Entitlement (default premium)',
    seat_limit: 'Seat limit (empty: unlimited)',
    access_duration_days: 'Access duration in days (empty with years empty: open-ended)',
    access_duration_years: 'Access duration in years',
  },
  rules: {
    code:
      `Use ${CODE_MIN_LENGTH} to ${CODE_MAX_LENGTH} letters (A-Z), digits, _ or -; ` +
      'other characters are dropped and lowercase letters become capitals.',
    name: 'Use at most 200 characters.',
    entitlement: 'Use at most 100 characters, or leave it empty for premium.',
    seat_limit: wholeNumber('for unlimited seats'),
    access_duration_days: wholeNumber('(with years empty too: access does not end)'),
    access_duration_years: wholeNumber('(with days empty too: access does not end)'),
  },
  conflict: 'code',
} satisfies FormWords;
const L = FREE_CODE_WORDS.labels;
const R = FREE_CODE_WORDS.rules;

/** The code's length rule, checked on what is left after cleanup (as the handler does), listed with the schema's problems. */
export function freeCodeChecks(body: Record<string, unknown>): FieldProblem[] {
  if (typeof body.code !== 'string' || body.code === '') return [];
  const cleaned = cleanupCode(body.code);
  if (isValidCodeLength(cleaned)) return [];
  const left = cleaned.length === 0 ? 'nothing is left' : `"${cleaned}" is left (${cleaned.length} characters)`;
  return [{ loc: ['body', 'code'], msg: `Once cleaned up, ${left}. ${R.code}`, type: SAID }];
}

export async function freeCodesPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const state = stateFor(s, 'new-free-code');
  const { app, picker } = await pickApp(ctx, s);
  if (!app)
    return dashboardPage(
      ctx,
      s,
      200,
      'Free-access codes',
      <p>
        No app yet:{' '}
        <OrgLink s={s} to="/dashboard">
          create one
        </OrgLink>
        .
      </p>,
    );
  const codes = (await listFreeCodes(ctx.deps.db, app.id)).map(freeCodeView);
  const back = orgLink(s, `/dashboard/free-codes?app=${encodeURIComponent(app.id)}`);
  dashboardPage(
    ctx,
    s,
    200,
    'Free-access codes',
    <>
      {picker}
      <p class="muted">
        Codes of <strong>{String(app.name)}</strong> that give free access to whoever enters them in the app. Blocking a code ends the
        access of everyone who redeemed it.
      </p>
      {codes.length ? (
        <Table id="free-codes" columns={['Code', 'Name', 'Gives', 'Seats used', 'Code expires', 'State', '']}>
          {codes.map((c) => (
            <tr data-code={c.code}>
              <td>
                <code>{c.code}</code>
              </td>
              <td>{c.name ?? ''}</td>
              <td>{c.description}</td>
              <td>
                {c.seats_used}
                {c.seat_limit === null ? ' (unlimited)' : ` of ${c.seat_limit}`}
              </td>
              <td>{when(c.expires_at, 'never')}</td>
              <td class="code-state">
                <StatePill state={c.blocked ? 'blocked' : c.live ? 'live' : 'expired'} />
              </td>
              <td>
                {c.blocked ? (
                  <ButtonForm
                    s={s}
                    action={`/api/apps/${app.id}/free-codes/${c.id}/block`}
                    label="Unblock"
                    returnTo={back}
                    fields={{ blocked: 'false' }}
                  />
                ) : (
                  <ConfirmForm
                    s={s}
                    action={`/api/apps/${app.id}/free-codes/${c.id}/block`}
                    returnTo={back}
                    fields={{ blocked: 'true' }}
                    {...DANGERS.blockCode}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p class="muted">No free-access codes yet.</p>
      )}
      <h2>Create a free-access code</h2>
      <PostForm s={s} action={`/api/apps/${app.id}/free-codes`} returnTo={back} formId="new-free-code">
        <Field id="fc-code" name="code" label={L.code} hint={R.code} required maxlength={64} state={state} />
        <Field id="fc-name" name="name" label={L.name} maxlength={200} state={state} />
        <Field id="fc-ent" name="entitlement" label={L.entitlement} maxlength={100} state={state} />
        <Field id="fc-seats" name="seat_limit" label={L.seat_limit} inputmode="numeric" state={state} />
        <Field id="fc-days" name="access_duration_days" label={L.access_duration_days} inputmode="numeric" state={state} />
        <Field id="fc-years" name="access_duration_years" label={L.access_duration_years} inputmode="numeric" state={state} />
        <button type="submit">Create code</button>
      </PostForm>
    </>,
  );
}
