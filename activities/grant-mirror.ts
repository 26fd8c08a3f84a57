// Seam for mirroring a free-access grant to the subscription provider (spec: optional and best effort; premium is
// gated on /sdk/access, never on this). Switched OFF in this part: it reports that no attempt was made. The real
// client (SUBPROVIDER_API_ROOT) replaces the body; it is called after the grant commits, never under the code lock.
export interface GrantMirrorResult { attempted: boolean; ok: boolean; error: string | null }

export interface MirroredGrant { appId: string; appUserId: string; entitlement: string; expiresAt: Date | null }

export async function mirrorGrant(_grant: MirroredGrant): Promise<GrantMirrorResult> {
  return { attempted: false, ok: false, error: null };
}
