// Wires the subscription provider's webhook for one app through the provider's REST API, with the app's stored
// provider secret key (a human uploads it through the signed credential link; it never passes through the agent).
// Our webhook secret is stored as a digest only, so wiring means rotating it: the new secret goes to the provider
// and nowhere else. Order, so that nothing changes unless the provider accepted the new secret:
//   1. outside any transaction: the key (none, unreadable -> not wired) and the project (given, else the key's only one);
//   2. one transaction: rotate the secret (this also locks the app row, so concurrent setups of one app run one after
//      the other and the second finds the first's integration), list the project's webhook integrations, update
//      ours (matched by URL) or create it; only when the provider answered 2xx does the transaction commit.
// A provider failure rolls the rotation back: the current secret keeps working. If the commit itself failed after
// the provider accepted, the provider would hold a secret we never stored; calling the setup again repairs that.
import type { Knex } from 'knex';
import { createSubproviderClient, SubproviderError, type ProviderProject, type SubproviderClient } from '../clients/subprovider.js';
import { rotateWebhookSecret } from '../db/apps-writes.js';
import { loadCredential, UnreadableCredentialError } from '../db/store-credentials.js';
import { NotFoundError } from '../errors/http-errors.js';
import type { SecretBox } from '../lib/secret-box.js';

/** The display name of the integration we create (an existing one keeps the name a human gave it). */
export const INTEGRATION_NAME = 'svc referral attribution';

export type NotWiredCode =
  | 'autowire_disabled'
  | 'no_provider_key'
  | 'provider_key_unreadable'
  | 'provider_key_rejected'
  | 'provider_unavailable'
  | 'project_id_required'
  | 'project_not_found'
  | 'provider_refused';

export interface NotWired {
  wired: false;
  code: NotWiredCode;
  message: string;
  retryable: boolean;
  projects?: ProviderProject[];
}

export interface Wired {
  wired: true;
  projectId: string;
  integrationId: string;
  action: 'created' | 'updated';
  /** Further integrations of the project with our URL: left alone, they still send the old (now dead) secret. */
  duplicateIds: string[];
}

export interface AutowireDeps {
  db: Knex;
  box: SecretBox | undefined;
  apiRoot: string;
  timeoutMs?: number;
}

export interface AutowireRequest {
  appId: string;
  webhookUrl: string;
  projectId?: string;
  appIdAtProvider?: string;
}

const notWired = (code: NotWiredCode, message: string, retryable = false, projects?: ProviderProject[]): NotWired => ({
  wired: false,
  code,
  message,
  retryable,
  ...(projects ? { projects } : {}),
});

export async function autowireWebhook(deps: AutowireDeps, req: AutowireRequest): Promise<Wired | NotWired> {
  const key = await storedKey(deps, req.appId);
  if (typeof key !== 'string') return key;
  const client = createSubproviderClient(deps.apiRoot, key, deps.timeoutMs ?? 10_000);
  try {
    const projectId = req.projectId ?? (await soleProject(client));
    if (typeof projectId !== 'string') return projectId;
    return await deps.db.transaction((trx) => rotateAndWire(trx, client, projectId, req));
  } catch (err) {
    if (err instanceof SubproviderError) return notWiredFor(err, req.projectId);
    throw err;
  }
}

async function storedKey(deps: AutowireDeps, appId: string): Promise<string | NotWired> {
  if (!deps.box)
    return notWired(
      'no_provider_key',
      'Credential storage is not configured on this server (SVC_MASTER_KEY), so no provider key can be stored.',
    );
  try {
    const key = await loadCredential(deps.db, deps.box, appId, 'subprovider');
    return (
      key ??
      notWired(
        'no_provider_key',
        'No subscription provider secret API key is stored for this app: a ' +
          "human uploads it through the signed credential link (platform 'subprovider').",
      )
    );
  } catch (err) {
    // Only an undecryptable key is the human's to fix; a database fault is an outage and answers as one.
    if (!(err instanceof UnreadableCredentialError)) throw err;
    return notWired(
      'provider_key_unreadable',
      'The stored subscription provider key cannot be decrypted (the master ' +
        'key changed): a human uploads it again through the signed credential link.',
    );
  }
}

async function soleProject(client: SubproviderClient): Promise<string | NotWired> {
  const projects = await client.listProjects();
  if (projects.length === 1) return projects[0]!.id;
  return projects.length === 0
    ? notWired('project_id_required', 'The provider key reaches no project: pass project_id (the provider project id, proj...).')
    : notWired('project_id_required', 'The provider key reaches several projects: pass project_id, one of `projects`.', false, projects);
}

async function rotateAndWire(trx: Knex.Transaction, client: SubproviderClient, projectId: string, req: AutowireRequest): Promise<Wired> {
  const secret = await rotateWebhookSecret(trx, req.appId);
  if (!secret) throw new NotFoundError('App not found');
  const ours = (await client.listWebhookIntegrations(projectId)).filter((i) => sameUrl(i.url, req.webhookUrl));
  const authorization_header = `Bearer ${secret}`;
  const scope = req.appIdAtProvider === undefined ? {} : { app_id: req.appIdAtProvider };
  const [existing, ...duplicates] = ours;
  const integration = existing
    ? await client.updateWebhookIntegration(projectId, existing.id, { url: req.webhookUrl, authorization_header, ...scope })
    : await client.createWebhookIntegration(projectId, { name: INTEGRATION_NAME, url: req.webhookUrl, authorization_header, ...scope });
  return {
    wired: true,
    projectId,
    integrationId: integration?.id ?? existing?.id ?? '',
    action: existing ? 'updated' : 'created',
    duplicateIds: duplicates.map((d) => d.id),
  };
}

const sameUrl = (a: string | undefined, b: string) => typeof a === 'string' && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function notWiredFor(err: SubproviderError, givenProject: string | undefined): NotWired {
  if (err.status === 401 || err.status === 403) {
    return notWired(
      'provider_key_rejected',
      `The provider refused the stored key (${err.message}). It must be a secret API key ` +
        `(v2) of this project with write access to integrations ` +
        `(project_configuration:integrations:read_write): a human uploads a correct one through the signed credential link.`,
    );
  }
  if (err.status === 404 && givenProject)
    return notWired('project_not_found', `The provider knows no project ${givenProject} for this key (${err.message}).`);
  if (err.retryable)
    return notWired(
      'provider_unavailable',
      `${err.message}. Nothing was changed: the current webhook secret still works. Try again later.`,
      true,
    );
  return notWired('provider_refused', `${err.message}. Nothing was changed: the current webhook secret still works.`);
}
