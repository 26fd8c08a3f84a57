// GET /dashboard/agents, the connect-agent page (spec "Authentication" 2): create an agent key `it_mcp_...` with
// the scopes ticked (all by default, as the spec says), shown once on GET /dashboard/shown-once (shown-once.tsx); list and
// revoke the organization's keys (a revoked key is refused with 401 on its next call: keys are looked up on every
// call); list and revoke the user's OAuth grants (revocation deletes the grant's codes and tokens, so refresh stops
// and its access tokens die at once; the same as POST /api/grants/{id}/revoke). Owners and admins manage keys.
import { issueAgentKeyOnDashboard, revokeAgentKeyOnDashboard } from '../../../actions/agent-keys.js';
import { revokeOauthAccess } from '../../../actions/oauth-grants.js';
import { listAgentKeys } from '../../../db/agent-keys.js';
import { listOauthGrants } from '../../../db/oauth-grants.js';
import { isScope, SCOPE_SENTENCES, SCOPES } from '../../../lib/scopes.js';
import { Badge, Check, Field, LocalTime, type FormState } from '../../view-kit/ui.js';
import { ProblemSummary, refusal, type FormWords } from '../../view-kit/form-errors.js';
import type { AppContext } from '../../context.js';
import { ConfirmForm, needsConfirmation, type Danger } from '../../view-kit/confirm.js';
import { setFlash } from '../../view-kit/flash.js';
import { shownOnceUrl } from '../../view-kit/form-reply.js';
import { canManage, dashboardPage, orgLink, PostForm, Table, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

const when = (d: Date | string | null) => <LocalTime at={d} />;
const revokeKeyDanger = (name: string): Danger => ({
  question: `Revoke the agent key "${name}"?`,
  label: `Revoke ${name}`,
  detail:
    'Every agent using this key is refused from its next call on. This cannot be undone: make a new key for agents that still need access.',
});
const REVOKE_GRANT: Danger = {
  question: "Revoke this agent's access?",
  label: 'Revoke access',
  detail: 'Its access tokens stop working at once and it cannot refresh them; the agent has to ask for your consent again.',
};

const Scopes = ({ scopes }: { scopes: string[] }) => (
  <>
    {scopes.map((x, i) => (
      <>
        {i > 0 ? ' ' : ''}
        <code>{x}</code>
      </>
    ))}
  </>
);

/** The key form's words: its labels, and each rule as a person reads it. */
const KEY_WORDS = {
  labels: { name: 'Name', scope: 'Scopes' },
  rules: { name: 'Give the key a name of up to 100 characters, such as CI agent.', scope: 'Tick at least one scope.' },
} satisfies FormWords;

/** A refused key: the form's state, its summary, and the scopes that were ticked. */
interface Refused {
  state?: FormState;
  lines?: string[];
  scopes?: string[];
}

function CreateKeyForm({ s, refused = {} }: { s: SignedIn; refused?: Refused }) {
  if (!canManage(s)) return <p class="muted">Owners and admins create agent keys.</p>;
  const { state, lines = [], scopes } = refused;
  const scopeError = state?.errors?.scope;
  return (
    <>
      <h2>Create an agent key</h2>
      <p>
        For headless or CI agents. The key is shown once. Agents never move money, see raw credentials, delete or administer, whatever the
        scopes.
      </p>
      <ProblemSummary lines={lines} verb="created" />
      <PostForm s={s} action={orgLink(s, '/dashboard/agents/keys')}>
        <Field id="key-name" name="name" label={KEY_WORDS.labels.name} required maxlength={100} value="CI agent" state={state} />
        <fieldset aria-describedby={scopeError ? 'key-scope-error' : undefined}>
          <legend>{KEY_WORDS.labels.scope}</legend>
          {SCOPES.map((sc, i) => (
            <Check name="scope" value={sc} checked={scopes ? scopes.includes(sc) : true} autofocus={i === 0 && state?.focus === 'scope'}>
              <code>{sc}</code>: {SCOPE_SENTENCES[sc]}
            </Check>
          ))}
          {scopeError ? (
            <p class="field-error" id="key-scope-error">
              {scopeError}
            </p>
          ) : null}
        </fieldset>
        <button type="submit">Create key</button>
      </PostForm>
    </>
  );
}

async function agentsPage(ctx: AppContext, s: SignedIn, status = 200, notice?: string, refused?: Refused): Promise<void> {
  if (notice) s = { ...s, flash: { ...s.flash, flash: { tone: status >= 400 ? 'bad' : 'ok', text: notice } } };
  const [keys, grants] = await Promise.all([listAgentKeys(ctx.deps.db, s.orgId ? [s.orgId] : []), listOauthGrants(ctx.deps.db, s.userId)]);
  const back = orgLink(s, '/dashboard/agents');
  const base = ctx.deps.config.BASE_URL;
  dashboardPage(
    ctx,
    s,
    status,
    'Connect an agent',
    <>
      <p>
        Agents connect to <code>{base}/mcp</code> (tool server) or <code>{base}/api/agent</code> with OAuth (they open a consent page for
        you) or with an agent key.
      </p>
      <CreateKeyForm s={s} refused={refused} />
      <h2>Agent keys</h2>
      {keys.length ? (
        <Table columns={['Name', 'Key', 'Scopes', 'Created', 'Last used', '']}>
          {keys.map((k) => (
            <tr data-key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.key_prefix}…</code>
              </td>
              <td>
                <Scopes scopes={k.scopes} />
              </td>
              <td>{when(k.created_at)}</td>
              <td>{k.last_used_at ? when(k.last_used_at) : 'never'}</td>
              <td>
                {k.revoked_at ? (
                  <>
                    <Badge tone="bad">revoked</Badge> {when(k.revoked_at)}
                  </>
                ) : canManage(s) ? (
                  <ConfirmForm s={s} action={`/dashboard/agents/keys/${k.id}/revoke`} returnTo={back} {...revokeKeyDanger(k.name)} />
                ) : (
                  <Badge tone="ok">active</Badge>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p class="muted">No keys yet.</p>
      )}
      <h2>OAuth access you granted</h2>
      {grants.length ? (
        <Table columns={['Client', 'Scopes', 'Granted', 'Last used', '']}>
          {grants.map((g) => (
            <tr data-grant={g.id}>
              <td>
                <code>{g.client_id}</code>
              </td>
              <td>
                <Scopes scopes={g.scopes} />
              </td>
              <td>{when(g.created_at)}</td>
              <td>{g.last_used_at ? when(g.last_used_at) : 'never'}</td>
              <td>
                {g.revoked_at ? (
                  <>
                    <Badge tone="bad">revoked</Badge> {when(g.revoked_at)}
                  </>
                ) : (
                  <ConfirmForm s={s} action={`/dashboard/agents/grants/${g.id}/revoke`} returnTo={back} {...REVOKE_GRANT} />
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p class="muted">No agent has OAuth access.</p>
      )}
    </>,
  );
}

export async function showAgents(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (s) await agentsPage(ctx, s);
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

export async function createKey(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId || !canManage(s)) return agentsPage(ctx, s, 403, 'Only owners and admins create agent keys.');
  const body = (ctx.state.body ?? {}) as Record<string, unknown>;
  const typed = typeof body.name === 'string' ? body.name : '';
  const name = typed.trim().slice(0, 100);
  const scopes = list(body.scope).filter(isScope);
  const failing = [...(name ? [] : ['name']), ...(scopes.length ? [] : ['scope'])];
  if (failing.length > 0) return agentsPage(ctx, s, 422, undefined, { ...refusal(failing, KEY_WORDS, { name: typed, scope: '' }), scopes });
  const key = await issueAgentKeyOnDashboard(ctx.deps, {
    key: { orgId: s.orgId, name, scopes, createdByUserId: s.userId },
    actor: { orgId: s.orgId, userId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp },
  });
  setFlash(ctx, { secrets: [{ name: 'agent_key', label: `Agent key "${name}" (${scopes.join(', ')})`, value: key.key }] });
  redirectTo(ctx, shownOnceUrl(orgLink(s, '/dashboard/agents')));
}

function redirectTo(ctx: AppContext, to: string): void {
  ctx.status = 303;
  ctx.redirect(to);
}

export async function revokeKey(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!canManage(s)) return agentsPage(ctx, s, 403, 'Only owners and admins revoke agent keys.');
  const id = ctx.params.id as string;
  const key = (await listAgentKeys(ctx.deps.db, s.orgIds)).find((k) => k.id === id);
  if (needsConfirmation(ctx, revokeKeyDanger(key?.name ?? 'key'))) return;
  const actor = { orgId: s.orgId ?? null, userId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp };
  if (!(await revokeAgentKeyOnDashboard(ctx.deps, { keyId: id, orgIds: s.orgIds, actor })))
    return agentsPage(ctx, s, 404, 'No such active key in your organizations.');
  setFlash(ctx, { flash: { tone: 'ok', text: `Key "${key?.name ?? id}" revoked: it is refused from its next call on.` } });
  redirectTo(ctx, orgLink(s, '/dashboard/agents'));
}

export async function revokeGrant(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const id = ctx.params.id as string;
  if (needsConfirmation(ctx, REVOKE_GRANT)) return;
  if (!(await revokeOauthAccess(ctx.deps, { grantId: id, userId: s.userId })))
    return agentsPage(ctx, s, 404, 'No such live grant of yours.');
  setFlash(ctx, { flash: { tone: 'ok', text: 'Access revoked: refresh stops and its tokens no longer work.' } });
  redirectTo(ctx, orgLink(s, '/dashboard/agents'));
}
