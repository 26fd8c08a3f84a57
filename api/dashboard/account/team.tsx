// Teammates: the members of the organization with their roles (owner, admin, member: the schema's), pending
// invitations, and inviting someone by email (owners and admins; only an owner may invite an owner). The invitation
// is a one-time 7-day link in the email outbox. Accepting: a new address sets a password and gets a verified
// account (the link proved the address); an existing account must be signed in as that address and accepts.
import { Field, LocalTime, ScrollTable, type FormState } from '../../view-kit/ui.js';
import { ProblemSummary, refusal, type FormWords } from '../../view-kit/form-errors.js';
import { findLiveAccountToken, listPendingInvites } from '../../../db/account-tokens.js';
import { findOrganization } from '../../../db/organizations.js';
import { findUserByEmail, listMembers } from '../../../db/users.js';
import { safeUrl } from '../../view-kit/html.js';
import { hashPassword } from '../../../lib/passwords.js';
import { MEMBERSHIP_ROLES, type MembershipRole } from '../../../schema/types.js';
import type { AppContext } from '../../context.js';
import { accountTokenHash } from '../../../actions/account-mail.js';
import { acceptInvitation, inviteTeammate as inviteTeammateByEmail } from '../../../actions/team.js';
import { accountDeps, ErrorLine, passwordProblem, PublicForm, simplePage } from './accounts.js';
import { canManage, dashboardPage, orgLink, PostForm, Table, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { checkLoginCsrf, field, LOGIN_PATH, signInUrl } from '../../view-kit/sign-in-forms.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
const date = (d: Date | string | null) => <LocalTime at={d} />;

/** The invite form's words: its labels, and each rule as a person reads it. */
const INVITE_WORDS = {
  labels: { email: 'Email', role: 'Role' },
  rules: {
    email: 'Enter the teammate’s email address, such as name@example.com.',
    role: 'Pick member or admin (only an owner invites an owner).',
  },
} satisfies FormWords;

/** A refused invitation: its form's state and the summary's lines (form-errors.tsx). */
interface Refused {
  state?: FormState;
  lines?: string[];
  error?: string;
}

async function teamPage(ctx: AppContext, s: SignedIn, status = 200, notice?: string, refused: Refused = {}): Promise<void> {
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Team', <p>You belong to no organization.</p>);
  const [members, invites] = await Promise.all([listMembers(ctx.deps.db, s.orgId), listPendingInvites(ctx.deps.db, s.orgId)]);
  const roles = MEMBERSHIP_ROLES.filter((r) => r !== 'owner' || s.role === 'owner');
  dashboardPage(
    ctx,
    s,
    status,
    'Team',
    <>
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ScrollTable label="Members">
        <table>
          <caption class="muted">Members</caption>
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Since</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr>
                <td>{m.email}</td>
                <td>{m.role}</td>
                <td>{date(m.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <h2>Pending invitations</h2>
      {invites.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <Table columns={['Email', 'Role', 'Expires']}>
          {invites.map((i) => (
            <tr>
              <td>{i.email}</td>
              <td>{i.role}</td>
              <td>{date(i.expires_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      {canManage(s) ? (
        <>
          <h2>Invite a teammate</h2>
          <ErrorLine error={refused.error} />
          <ProblemSummary lines={refused.lines ?? []} verb="sent" />
          <PostForm s={s} action={orgLink(s, '/dashboard/team/invite')}>
            <Field id="invite-email" name="email" type="email" label={INVITE_WORDS.labels.email} required state={refused.state} />
            <label for="invite-role">{INVITE_WORDS.labels.role}</label>
            <select
              id="invite-role"
              name="role"
              aria-invalid={refused.state?.errors?.role ? 'true' : undefined}
              aria-describedby={refused.state?.errors?.role ? 'invite-role-error' : undefined}
              autofocus={refused.state?.focus === 'role' ? true : undefined}
            >
              {roles.map((r) => (
                <option selected={r === (refused.state?.values?.role ?? 'member')}>{r}</option>
              ))}
            </select>
            {refused.state?.errors?.role ? (
              <p class="field-error" id="invite-role-error">
                {refused.state.errors.role}
              </p>
            ) : null}
            <button type="submit">Send invitation</button>
          </PostForm>
        </>
      ) : (
        <p class="muted">Owners and admins invite teammates.</p>
      )}
    </>,
  );
}

export async function showTeam(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (s) await teamPage(ctx, s);
}

export async function inviteTeammate(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s)) return teamPage(ctx, s, 403, undefined, { error: 'Only owners and admins invite teammates.' });
  const typed = field(ctx.state.body, 'email');
  const email = typed.trim().toLowerCase();
  const role = field(ctx.state.body, 'role') as MembershipRole;
  const failing = [
    ...(EMAIL.test(email) ? [] : ['email']),
    ...(MEMBERSHIP_ROLES.includes(role) && (role !== 'owner' || s.role === 'owner') ? [] : ['role']),
  ];
  if (failing.length > 0) return teamPage(ctx, s, 422, undefined, refusal(failing, INVITE_WORDS, { email: typed, role }));
  await inviteTeammateByEmail(accountDeps(ctx), { orgId: s.orgId, email, role, invitedByUserId: s.userId });
  await teamPage(ctx, s, 200, `Invitation sent to ${email}.`);
}

// ---- accepting -------------------------------------------------------------------------------------------------

const invalidInvite = (ctx: AppContext) =>
  simplePage(ctx, 410, 'Invitation not valid', <p>This invitation is unknown, used or expired. Ask your teammate for a new one.</p>);

export async function showInvite(ctx: AppContext): Promise<void> {
  const token = ctx.params.token as string;
  const invite = await findLiveAccountToken(ctx.deps.db, 'invite', accountTokenHash(token));
  if (!invite) return invalidInvite(ctx);
  const org = await findOrganization(ctx.deps.db, invite.org_id!);
  const existing = await findUserByEmail(ctx.deps.db, invite.email);
  const action = `/dashboard/invite/${encodeURIComponent(token)}`;
  const intro = (
    <p>
      You are invited to <strong>{org?.name ?? ''}</strong> as {invite.role}, as {invite.email}.
    </p>
  );
  if (existing) {
    const p = ctx.state.principal;
    if (p?.kind !== 'user' || p.userId !== existing.id) {
      return simplePage(
        ctx,
        200,
        'Join the organization',
        <>
          {intro}
          <p>
            <a href={safeUrl(signInUrl(ctx.path))}>Sign in as {invite.email}</a> to accept.
          </p>
        </>,
      );
    }
    return simplePage(
      ctx,
      200,
      'Join the organization',
      <>
        {intro}
        <PublicForm ctx={ctx} action={action}>
          <button type="submit">Accept</button>
        </PublicForm>
      </>,
    );
  }
  simplePage(
    ctx,
    200,
    'Join the organization',
    <>
      {intro}
      <PublicForm ctx={ctx} action={action}>
        <label for="password">Choose a password (10 characters or more)</label>
        <input id="password" type="password" name="password" autocomplete="new-password" required minlength={10} />
        <button type="submit">Create account and join</button>
      </PublicForm>
    </>,
  );
}

export async function acceptInvite(ctx: AppContext): Promise<void> {
  checkLoginCsrf(ctx);
  const token = ctx.params.token as string;
  const pending = await findLiveAccountToken(ctx.deps.db, 'invite', accountTokenHash(token));
  if (!pending) return invalidInvite(ctx);
  const existing = await findUserByEmail(ctx.deps.db, pending.email);
  const p = ctx.state.principal;
  if (existing && (p?.kind !== 'user' || p.userId !== existing.id)) return ctx.redirect(signInUrl(ctx.path));
  let passwordHash: string | undefined;
  if (!existing) {
    const password = field(ctx.state.body, 'password');
    const problem = passwordProblem(password);
    if (problem)
      return simplePage(
        ctx,
        422,
        'Join the organization',
        <>
          <ErrorLine error={problem} />
          <p>
            <a href={safeUrl(ctx.path)}>Back</a>
          </p>
        </>,
      );
    passwordHash = await hashPassword(password);
  }
  const joined = await acceptInvitation(ctx.deps, { token, existingUserId: existing?.id, passwordHash });
  if (!joined) return invalidInvite(ctx);
  if (existing) return ctx.redirect('/dashboard');
  simplePage(
    ctx,
    200,
    'Welcome',
    <>
      <p>Your account is ready.</p>
      <p>
        <a href={LOGIN_PATH}>Sign in</a>
      </p>
    </>,
  );
}
