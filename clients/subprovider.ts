// The subscription provider's REST API, as far as we use it: promotional entitlement grants (the free-access
// mirror). Base URL from SUBPROVIDER_API_ROOT; tests point it at a local stub speaking the same wire format.

export interface PromotionalGrant { appUserId: string; entitlement: string; endTimeMs: number | null }

export class SubproviderError extends Error {}

export function createSubproviderClient(apiRoot: string, secretKey: string, timeoutMs = 5000) {
  const base = apiRoot.endsWith('/') ? apiRoot : `${apiRoot}/`;
  return {
    /** POST /v1/subscribers/{app_user_id}/entitlements/{entitlement}/promotional */
    async grantPromotional(g: PromotionalGrant): Promise<void> {
      const url = new URL(`v1/subscribers/${encodeURIComponent(g.appUserId)}/entitlements/${encodeURIComponent(g.entitlement)}/promotional`, base);
      const body = g.endTimeMs === null ? { duration: 'lifetime' } : { end_time_ms: g.endTimeMs };
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new SubproviderError(`subscription provider unreachable: ${err instanceof Error ? err.name : 'error'}`);
      }
      if (!res.ok) {
        // The provider's error body names the problem (`{"code": 7225, "message": "..."}`); never echo our key.
        const detail = await res.json().then((b) => (b as { message?: string }).message, () => undefined);
        throw new SubproviderError(`subscription provider answered ${res.status}${detail ? `: ${detail}` : ''}`);
      }
    },
  };
}
