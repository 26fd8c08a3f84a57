// GET /dashboard/creators: the organization's invite capacity (the wallet answer's own figures), then per campaign
// its creators with their codes and production performance (the agent API's affiliates rows), a form to invite one
// creator and a batch form (a textarea of `email,name,lang` lines, up to the agent API's 100), and the latest
// invitations with a withdraw button on the pending ones. Every form posts to the dashboard REST
// (api/dashboard/routes.ts, CREATOR_ROUTES), whose handlers are the agent API's.
import { ScrollTable, Field } from '../../lib/ui.js';
import { ConfirmForm } from './confirm.js';
import { DANGERS } from './dangers.js';
import type { VNode } from 'preact';
import { listCampaignsInOrgs, type AgentCampaignRow } from '../../db/campaigns.js';
import { listCampaignAffiliates, listInvitations, type InvitationView } from '../../db/invitations.js';
import { findOrgBillingSettings, getInviteUsage } from '../../db/organizations.js';
import { MAX_BATCH } from '../agent/invitations.js';
import { inviteCapacityView, inviteLimits } from '../agent/wallet.js';
import type { AppContext } from '../context.js';
import { when } from './app-picker.js';
import { stateFor, dashboardPage, OrgLink, orgLink, PostForm, signedIn, Table, type SignedIn } from './layout.js';

async function capacitySection(ctx: AppContext, orgId: string): Promise<VNode | null> {
  const [settings, usage] = await Promise.all([findOrgBillingSettings(ctx.deps.db, orgId), getInviteUsage(ctx.deps.db, orgId)]);
  if (!settings) return null;
  const { slots, emails } = inviteLimits(settings, ctx.deps.config);
  const c = inviteCapacityView(slots, emails, usage);
  return <>
    <h2>Invite capacity</h2><ScrollTable label="Invite capacity"><table id="invite-capacity"><tbody>
      <tr><th scope="row">Marketplace slots (pending invitations)</th><td id="slots-available">{c.marketplace_slots_available} of {c.marketplace_slots_total} free</td></tr>
      <tr><th scope="row">Invitation emails today (UTC)</th><td id="emails-remaining">{c.emails_remaining_today} of {c.daily_email_budget} left</td></tr>
    </tbody></table></ScrollTable><p class="muted">A withdrawn, accepted or expired invitation frees its slot. Inviting needs the wallet's minimum escrow.</p>
  </>;
}

type Affiliates = Awaited<ReturnType<typeof listCampaignAffiliates>>;

function CampaignSection({ s, c, creators, back }: { s: SignedIn; c: AgentCampaignRow; creators: Affiliates; back: string }) {
  const id = c.id;
  const one = stateFor(s, `invite-${id}`);
  const batch = stateFor(s, `batch-${id}`);
  // The batch's textarea becomes the body's `creators` (invite-form.ts): its error belongs beside the textarea.
  const many = batch && { ...batch, errors: { ...batch.errors, batch: batch.errors?.batch ?? batch.errors?.creators ?? '' } };
  const name = String(c.name);
  return (
    <section id={`campaign-${id}`}><h2>{name} <span class="muted">({String(c.status)}, {String(c.campaign_type)})</span></h2>
      {creators.length ? (
        <Table columns={['Creator', 'Code', 'Code status', 'Joined by', 'Joined', 'Clicks', 'Installs', 'Production conversions']}>
          {creators.map((a) => <tr><td>{a.name}{a.social_handle ? <> <span class="muted">{a.social_handle}</span></> : null}</td><td><code>{a.code}</code></td><td>{a.status}</td><td>{a.source}</td><td>{when(a.joined_at)}</td><td>{a.clicks}</td><td>{a.installs}</td><td>{a.production_conversions}</td></tr>)}
        </Table>
      ) : <p class="muted">No creator has joined yet.</p>}
      <PostForm s={s} action={`/api/campaigns/${id}/invite`} returnTo={back} formId={`invite-${id}`}><fieldset><legend>Invite a creator to {name}</legend>
        <Field id={`inv-email-${id}`} name="email" label="Creator email" type="email" required maxlength={254} state={one} />
        <Field id={`inv-name-${id}`} name="name" label="Name (optional)" maxlength={200} state={one} />
        <Field id={`inv-lang-${id}`} name="lang" label="Language of the join page (optional, e.g. en, de)" maxlength={12} state={one} />
        <Field id={`inv-msg-${id}`} name="message" label="Personal message (optional)" textarea rows={3} maxlength={2000} state={one} />
        <button type="submit">Send invitation</button></fieldset></PostForm>
      <PostForm s={s} action={`/api/campaigns/${id}/invite`} returnTo={back} formId={`batch-${id}`}><fieldset><legend>Invite several creators to {name}</legend>
        <Field id={`inv-batch-${id}`} name="batch" label={`One creator per line: email, name, language (CSV; up to ${MAX_BATCH} lines; name and language optional)`} textarea rows={5} required placeholder="ana@example.com, Ana, es" state={many} />
        <Field id={`inv-bmsg-${id}`} name="message" label="Message for all (optional)" textarea rows={3} maxlength={2000} state={many} />
        <button type="submit">Send invitations</button></fieldset></PostForm>
    </section>
  );
}

function InvitationsSection({ s, rows, campaigns, back }: { s: SignedIn; rows: InvitationView[]; campaigns: Map<string, string>; back: string }) {
  if (rows.length === 0) return <><h2>Invitations</h2><p class="muted">No invitations yet.</p></>;
  return <>
    <h2>Invitations (latest 100)</h2>
    <Table id="invitations" columns={['Email', 'Campaign', 'Status', 'Sent', 'Expires', '']}>
      {rows.map((i) => (
        <tr data-invitation={i.id}><td>{String(i.email)}</td><td>{campaigns.get(String(i.campaign_id)) ?? String(i.campaign_id)}</td><td class="inv-status">{i.status}</td><td>{when(i.created_at)}</td><td>{when(i.expires_at)}</td>
          <td>{i.status === 'PENDING' ? <ConfirmForm s={s} action={`/api/invitations/${i.id}/withdraw`} returnTo={back} {...DANGERS.withdrawInvitation} /> : null}</td></tr>
      ))}
    </Table>
  </>;
}

export async function creatorsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Creators', <p>You belong to no organization.</p>);
  const db = ctx.deps.db;
  const back = orgLink(s, '/dashboard/creators');
  const [campaigns, invitations] = await Promise.all([
    listCampaignsInOrgs(db, [s.orgId]), listInvitations(db, [s.orgId], { limit: 100 }),
  ]);
  // FREE_ACCESS campaigns hold free-access codes, not creators (the invite handler answers 409 for them).
  const withCreators = campaigns.filter((c) => c.campaign_type !== 'FREE_ACCESS' && c.status !== 'archived');
  const [capacity, creators] = await Promise.all([capacitySection(ctx, s.orgId), Promise.all(withCreators.map((c) => listCampaignAffiliates(db, c.id)))]);
  const names = new Map(campaigns.map((c) => [c.id, String(c.name)]));
  dashboardPage(ctx, s, 200, 'Creators', <>
    {capacity}
    {withCreators.length
      ? withCreators.map((c, i) => <CampaignSection s={s} c={c} creators={creators[i]!} back={back} />)
      : <p>No campaign takes creators yet: create one on an app's <OrgLink s={s} to="/dashboard">setup page</OrgLink>.</p>}
    <InvitationsSection s={s} rows={invitations} campaigns={names} back={back} />
  </>);
}
