// GET /dashboard/creators: the organization's invite capacity (the wallet answer's own figures), the creators table
// (every creator code of the organization with production performance: creator-tables.tsx, `?format=csv` exports
// it), then per campaign a form to invite one creator and a batch form (a textarea of `email,name,lang` lines, up to the agent API's 100),
// and the latest invitations with a withdraw button on the pending ones. Every form posts to the dashboard REST
// (api/dashboard/routes.ts, CREATOR_ROUTES), whose handlers are the agent API's. A creator without an email address
// cannot sign in to the creator portal: their row says so and offers "add email and invite" (creator-tables.tsx,
// creator-portal-invite.ts).
import { ScrollTable, Field } from '../../view-kit/ui.js';
import { ConfirmForm } from '../../view-kit/confirm.js';
import { DANGERS } from '../dangers.js';
import type { VNode } from 'preact';
import { listCampaignsInOrgs, type AgentCampaignRow } from '../../../db/campaigns.js';
import { listInvitations, type InvitationView } from '../../../db/invitations.js';
import { findOrgBillingSettings, getInviteUsage } from '../../../db/organizations.js';
import { MAX_BATCH } from '../../agent/invitations.js';
import { inviteCapacityView, inviteLimits } from '../../agent/wallet.js';
import type { AppContext } from '../../context.js';
import { when } from '../apps/app-picker.js';
import { creatorTableSection, type PortalInviteError } from './creator-tables.js';
import { stateFor, dashboardPage, OrgLink, orgLink, PostForm, Table, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

async function capacitySection(ctx: AppContext, orgId: string): Promise<VNode | null> {
  const [settings, usage] = await Promise.all([findOrgBillingSettings(ctx.deps.db, orgId), getInviteUsage(ctx.deps.db, orgId)]);
  if (!settings) return null;
  const { slots, emails } = inviteLimits(settings, ctx.deps.config);
  const c = inviteCapacityView(slots, emails, usage);
  return (
    <>
      <h2>Invite capacity</h2>
      <ScrollTable label="Invite capacity">
        <table id="invite-capacity">
          <tbody>
            <tr>
              <th scope="row">Marketplace slots (pending invitations)</th>
              <td id="slots-available">
                {c.marketplace_slots_available} of {c.marketplace_slots_total} free
              </td>
            </tr>
            <tr>
              <th scope="row">Invitation emails today (UTC)</th>
              <td id="emails-remaining">
                {c.emails_remaining_today} of {c.daily_email_budget} left
              </td>
            </tr>
          </tbody>
        </table>
      </ScrollTable>
      <p class="muted">A withdrawn, accepted or expired invitation frees its slot. Inviting needs the wallet's minimum escrow.</p>
    </>
  );
}

function CampaignSection({ s, c, back }: { s: SignedIn; c: AgentCampaignRow; back: string }) {
  const id = c.id;
  const one = stateFor(s, `invite-${id}`);
  const batch = stateFor(s, `batch-${id}`);
  // The batch's textarea becomes the body's `creators` (invite-form.ts): its error belongs beside the textarea.
  const many = batch && { ...batch, errors: { ...batch.errors, batch: batch.errors?.batch ?? batch.errors?.creators ?? '' } };
  const name = String(c.name);
  return (
    <section id={`campaign-${id}`}>
      <h2>
        {name}{' '}
        <span class="muted">
          ({String(c.status)}, {String(c.campaign_type)})
        </span>
      </h2>
      <PostForm s={s} action={`/api/campaigns/${id}/invite`} returnTo={back} formId={`invite-${id}`}>
        <fieldset>
          <legend>Invite a creator to {name}</legend>
          <Field id={`inv-email-${id}`} name="email" label="Creator email" type="email" required maxlength={254} state={one} />
          <Field id={`inv-name-${id}`} name="name" label="Name (optional)" maxlength={200} state={one} />
          <Field id={`inv-lang-${id}`} name="lang" label="Language of the join page (optional, e.g. en, de)" maxlength={12} state={one} />
          <Field id={`inv-msg-${id}`} name="message" label="Personal message (optional)" textarea rows={3} maxlength={2000} state={one} />
          <button type="submit">Send invitation</button>
        </fieldset>
      </PostForm>
      <PostForm s={s} action={`/api/campaigns/${id}/invite`} returnTo={back} formId={`batch-${id}`}>
        <fieldset>
          <legend>Invite several creators to {name}</legend>
          <Field
            id={`inv-batch-${id}`}
            name="batch"
            label={`One creator per line: email, name, language (CSV; up to ${MAX_BATCH} lines; name and language optional)`}
            textarea
            rows={5}
            required
            placeholder="ana@example.com, Ana, es"
            state={many}
          />
          <Field id={`inv-bmsg-${id}`} name="message" label="Message for all (optional)" textarea rows={3} maxlength={2000} state={many} />
          <button type="submit">Send invitations</button>
        </fieldset>
      </PostForm>
    </section>
  );
}

function InvitationsSection({
  s,
  rows,
  campaigns,
  back,
}: {
  s: SignedIn;
  rows: InvitationView[];
  campaigns: Map<string, string>;
  back: string;
}) {
  if (rows.length === 0)
    return (
      <>
        <h2>Invitations</h2>
        <p class="muted">No invitations yet.</p>
      </>
    );
  return (
    <>
      <h2>Invitations (latest 100)</h2>
      <p>
        <OrgLink s={s} to="/dashboard/invitations">
          All invitations: search, sort and CSV export
        </OrgLink>
      </p>
      <Table id="invitations" columns={['Email', 'Campaign', 'Status', 'Sent', 'Expires', '']}>
        {rows.map((i) => (
          <tr data-invitation={i.id}>
            <td>{String(i.email)}</td>
            <td>{campaigns.get(String(i.campaign_id)) ?? String(i.campaign_id)}</td>
            <td class="inv-status">{i.status}</td>
            <td>{when(i.created_at)}</td>
            <td>{when(i.expires_at)}</td>
            <td>
              {i.status === 'PENDING' ? (
                <ConfirmForm s={s} action={`/api/invitations/${i.id}/withdraw`} returnTo={back} {...DANGERS.withdrawInvitation} />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

export async function creatorsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  await renderCreatorsPage(ctx, s, 200);
}

export async function renderCreatorsPage(ctx: AppContext, s: SignedIn, status: number, error?: PortalInviteError): Promise<void> {
  if (!s.orgId) return dashboardPage(ctx, s, status, 'Creators', <p>You belong to no organization.</p>);
  const db = ctx.deps.db;
  const back = orgLink(s, '/dashboard/creators');
  const table = await creatorTableSection(ctx, s, s.orgId, error);
  if (!table) return; // the CSV was sent
  const [campaigns, invitations] = await Promise.all([listCampaignsInOrgs(db, [s.orgId]), listInvitations(db, [s.orgId], { limit: 100 })]);
  // FREE_ACCESS campaigns hold free-access codes, not creators (the invite handler answers 409 for them).
  const withCreators = campaigns.filter((c) => c.campaign_type !== 'FREE_ACCESS' && c.status !== 'archived');
  const capacity = await capacitySection(ctx, s.orgId);
  const names = new Map(campaigns.map((c) => [c.id, String(c.name)]));
  const invited = typeof ctx.query.portal_invited === 'string' ? ctx.query.portal_invited : undefined;
  dashboardPage(
    ctx,
    s,
    status,
    'Creators',
    <>
      {invited ? (
        <p class="notice" role="status">
          The creator's email was added and a sign-in link to the creator portal was sent.
        </p>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          The creator's email was not added: {error.message}
        </p>
      ) : null}
      {capacity}
      {table}
      {withCreators.length ? (
        withCreators.map((c) => <CampaignSection s={s} c={c} back={back} />)
      ) : (
        <p>
          No campaign takes creators yet: create one on an app's{' '}
          <OrgLink s={s} to="/dashboard">
            setup page
          </OrgLink>
          .
        </p>
      )}
      <InvitationsSection s={s} rows={invitations} campaigns={names} back={back} />
    </>,
  );
}
