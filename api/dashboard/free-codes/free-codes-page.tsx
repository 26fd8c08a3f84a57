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
import { ButtonForm, dashboardPage, OrgLink, orgLink, PostForm, signedIn, Table } from '../../view-kit/layout.js';

export async function freeCodesPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
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
      <PostForm s={s} action={`/api/apps/${app.id}/free-codes`} returnTo={back}>
        <label for="fc-code">Code (4 to 20 of A-Z, 0-9, _ and -; lowercase is uppercased)</label>
        <input id="fc-code" name="code" required maxlength={64} />
        <label for="fc-name">Name (optional)</label>
        <input id="fc-name" name="name" maxlength={200} />
        <label for="fc-ent">Entitlement (default premium)</label>
        <input id="fc-ent" name="entitlement" maxlength={100} />
        <label for="fc-seats">Seat limit (empty: unlimited)</label>
        <input id="fc-seats" name="seat_limit" inputmode="numeric" />
        <label for="fc-days">Access duration in days (empty with years empty: open-ended)</label>
        <input id="fc-days" name="access_duration_days" inputmode="numeric" />
        <label for="fc-years">Access duration in years</label>
        <input id="fc-years" name="access_duration_years" inputmode="numeric" />
        <button type="submit">Create code</button>
      </PostForm>
    </>,
  );
}
