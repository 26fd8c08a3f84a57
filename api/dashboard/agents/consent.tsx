// The authorization server's interactions (api/oauth/provider.tsx sends the browser to /dashboard/oauth/{uid}):
// sign-in is the dashboard session (not signed in: the login page, then back here); consent is this page: the
// client, an organization picker, every requested scope with a plain sentence and a checkbox (all ticked for a
// new consent; an unticked scope is left out of the grant), approve or deny. The form carries the session's CSRF
// token (checked by api/auth/csrf.ts) and posts back here; the answer is oidc-provider's redirect.
import { recordOauthConsent } from '../../../actions/oauth-grants.js';
import { Button, Check } from '../../view-kit/ui.js';
import { listOrganizations } from '../../../db/organizations.js';
import { isScope, SCOPE_SENTENCES, SCOPES, type Scope } from '../../../lib/scopes.js';
import { SESSION_COOKIE } from '../../auth/authenticate.js';
import { sessionCsrf } from '../../auth/csrf.js';
import type { AppContext } from '../../context.js';
import { clientFacts, type ClientFacts } from '../../oauth/client-facts.js';
import { agentAudience, providerOf } from '../../oauth/provider.js';
import { sendPage } from '../../send-page.js';
import { signInUrl } from '../../view-kit/sign-in-forms.js';

type Details = Awaited<ReturnType<ReturnType<typeof providerOf>['interactionDetails']>>;

function refuse(ctx: AppContext, status: number, message: string): void {
  sendPage(ctx, status, {
    title: 'Cannot continue',
    lang: 'en',
    body: (
      <>
        <h1>Cannot continue</h1>
        {'\n'}
        <p class="error">{message}</p>
      </>
    ),
  });
}

async function loadInteraction(ctx: AppContext): Promise<Details | undefined> {
  try {
    const details = await providerOf(ctx.deps).interactionDetails(ctx.req, ctx.res);
    return details.uid === ctx.params.uid ? details : undefined;
  } catch {
    return undefined;
  }
}

/** Scopes the client asked for that we know (none named: all of them). */
function requestedScopes(details: Details): Scope[] {
  const raw = details.params.scope;
  const asked = (typeof raw === 'string' ? raw : '').split(' ').filter(isScope);
  return asked.length > 0 ? [...new Set(asked)] : [...SCOPES];
}

/** Who is asking and where the browser goes next (the facts come from api/oauth/client-facts.ts). */
function ClientIntro({ f }: { f: ClientFacts }) {
  return (
    <>
      <h1>Allow {f.name} to use your account?</h1>
      {'\n'}
      {f.source === 'metadata-document' ? (
        <p id="client-identity">
          Identified by its metadata document on <strong>{f.metadataDomain ?? ''}</strong>.
        </p>
      ) : (
        <p id="client-identity">
          <strong class="error" id="client-unverified">
            unverified
          </strong>
          : this client registered itself and chose its own name: nobody has checked that it is who it says it is.
        </p>
      )}
      {'\n'}
      {f.redirect ? (
        <p id="client-redirect">
          After you answer, your browser goes to{' '}
          <code>
            {f.redirect.scheme}://{f.redirect.host}
          </code>
          : {f.redirect.where}. Allow only if that is the agent you are connecting.
        </p>
      ) : null}
      {'\n'}
      <p class="muted">Client id {f.clientId}. It never gets money writes, payouts, raw credentials, deletes or admin.</p>
    </>
  );
}

function finish(ctx: AppContext, result: Record<string, unknown>): Promise<void> {
  ctx.respond = false;
  return providerOf(ctx.deps).interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
}

export async function showInteraction(ctx: AppContext): Promise<void> {
  const details = await loadInteraction(ctx);
  if (!details) return refuse(ctx, 400, 'This authorization request expired or is unknown. Start again from your agent.');
  const principal = ctx.state.principal;
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  if (principal?.kind !== 'user' || !cookie) return ctx.redirect(signInUrl(ctx.path));
  // Sign-in is the dashboard session: nothing to ask.
  if (details.prompt.name === 'login') return finish(ctx, { login: { accountId: principal.userId } });
  const client = await providerOf(ctx.deps).Client.find(String(details.params.client_id));
  const orgs = await listOrganizations(ctx.deps.db, principal.orgIds);
  if (orgs.length === 0) return refuse(ctx, 403, 'Your account belongs to no organization yet, so there is nothing to grant.');
  const scopes = requestedScopes(details);
  const facts = clientFacts(client, String(details.params.client_id), details.params.redirect_uri);
  sendPage(ctx, 200, {
    title: 'Allow access',
    lang: 'en',
    formAction: null,
    body: (
      <>
        <ClientIntro f={facts} />
        <form method="post" action={ctx.path}>
          <input type="hidden" name="csrf" value={sessionCsrf(ctx, cookie)} />
          <fieldset>
            <legend>Organization</legend>
            <p class="muted">Access covers the organization you pick, including organizations it creates (owned by you).</p>
            {orgs.map((o, i) => (
              <Check type="radio" name="org" value={o.id} checked={i === 0}>
                {o.name}
              </Check>
            ))}
          </fieldset>
          <fieldset>
            <legend>What it may do</legend>
            {scopes.map((sc) => (
              <Check name="scope" value={sc} checked>
                <code>{sc}</code>: {SCOPE_SENTENCES[sc]}
              </Check>
            ))}
          </fieldset>
          <div class="actions">
            <Button name="decision" value="approve">
              Allow
            </Button>
            <Button kind="secondary" name="decision" value="deny">
              Deny
            </Button>
          </div>
        </form>
      </>
    ),
  });
}

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

export async function answerInteraction(ctx: AppContext): Promise<void> {
  const details = await loadInteraction(ctx);
  if (!details) return refuse(ctx, 400, 'This authorization request expired or is unknown. Start again from your agent.');
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') return refuse(ctx, 401, 'Sign in first.');
  const body = (ctx.state.body ?? {}) as Record<string, unknown>;
  if (body.decision !== 'approve') {
    return finish(ctx, { error: 'access_denied', error_description: 'The user denied the request.' });
  }
  const org = typeof body.org === 'string' ? body.org : '';
  if (!principal.orgIds.includes(org)) return refuse(ctx, 400, 'Pick one of your organizations.');
  const asked = requestedScopes(details);
  const granted = asked.filter((s) => list(body.scope).includes(s));
  if (granted.length === 0) return refuse(ctx, 400, 'Tick at least one scope, or deny the request.');
  const denied = asked.filter((s) => !granted.includes(s));
  const provider = providerOf(ctx.deps);
  const clientId = String(details.params.client_id);
  const grant = new provider.Grant({ accountId: principal.userId, clientId });
  const missing = (details.prompt.details ?? {}) as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  // Agent scopes are resource scopes; as OpenID scopes they are declined (only openid and offline_access are).
  const oidcScopes = missing.missingOIDCScope ?? [];
  const openIdOnly = oidcScopes.filter((s) => !isScope(s));
  if (openIdOnly.length > 0) grant.addOIDCScope(openIdOnly.join(' '));
  if (oidcScopes.some(isScope)) grant.rejectOIDCScope(oidcScopes.filter(isScope).join(' '));
  const resources = Object.keys(missing.missingResourceScopes ?? {});
  for (const resource of resources.length > 0 ? resources : [agentAudience(ctx.deps.config)]) {
    grant.addResourceScope(resource, granted.join(' '));
    if (denied.length > 0) grant.rejectResourceScope(resource, denied.join(' '));
  }
  const grantId = await grant.save();
  await recordOauthConsent(ctx.deps, { id: grantId, userId: principal.userId, clientId, orgIds: [org], scopes: granted });
  return finish(ctx, { login: { accountId: principal.userId }, consent: { grantId } });
}
