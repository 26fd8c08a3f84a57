// Mirrors a free-access grant to the subscription provider as a promotional entitlement (spec: optional, best
// effort; premium is gated on /sdk/access, never on this). Off unless the app turned it on
// (`creator_code_settings.mirror_free_access_to_subprovider`) and stored the provider's secret API key. Called
// after the grant committed, never under the code lock; a failure is reported, never thrown.
import type { Knex } from 'knex';
import { mirrorsFreeAccessGrants } from '../../db/apps.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { loadCredential } from '../../db/store-credentials.js';
import { createSubproviderClient } from '../../clients/subprovider.js';

export interface GrantMirrorResult {
  attempted: boolean;
  ok: boolean;
  error: string | null;
}

export interface MirroredGrant {
  appId: string;
  appUserId: string;
  entitlement: string;
  expiresAt: Date | null;
}

export interface GrantMirrorDeps {
  db: Knex;
  box: SecretBox | undefined;
  apiRoot: string;
}

const NOT_ATTEMPTED: GrantMirrorResult = { attempted: false, ok: false, error: null };

export async function mirrorGrant(deps: GrantMirrorDeps, grant: MirroredGrant): Promise<GrantMirrorResult> {
  if (!deps.box) return NOT_ATTEMPTED;
  if (!(await mirrorsFreeAccessGrants(deps.db, grant.appId))) return NOT_ATTEMPTED;
  const secretKey = await loadCredential(deps.db, deps.box, grant.appId, 'subprovider');
  if (!secretKey) return { attempted: false, ok: false, error: 'mirror enabled but no subscription provider API key is stored' };
  try {
    await createSubproviderClient(deps.apiRoot, secretKey).grantPromotional({
      appUserId: grant.appUserId,
      entitlement: grant.entitlement,
      endTimeMs: grant.expiresAt ? grant.expiresAt.getTime() : null,
    });
    return { attempted: true, ok: true, error: null };
  } catch (err) {
    return { attempted: true, ok: false, error: err instanceof Error ? err.message : 'mirror failed' };
  }
}
