// The digest's unsubscribe link (docs/creator-portal.md "Digest"): {DASHBOARD_URL}/creator/unsubscribe?c=..&sig=..,
// an HMAC of the creator id under a key derived from SVC_MASTER_KEY for this purpose alone. It never expires (an old
// digest must still unsubscribe) and only ever stops mails, so nothing needs storing.
import { createHmac, timingSafeEqual } from 'node:crypto';

const key = (masterKey: string) => createHmac('sha256', masterKey).update('svc creator digest unsubscribe v1').digest();

function unsubscribeSignature(masterKey: string, creatorId: string): string {
  return createHmac('sha256', key(masterKey)).update(creatorId).digest('base64url');
}

export function unsubscribeUrl(masterKey: string, dashboardUrl: string, creatorId: string): string {
  const query = new URLSearchParams({ c: creatorId, sig: unsubscribeSignature(masterKey, creatorId) });
  return `${dashboardUrl}/creator/unsubscribe?${query.toString()}`;
}

export function unsubscribeMatches(masterKey: string, creatorId: unknown, sig: unknown): creatorId is string {
  if (typeof creatorId !== 'string' || typeof sig !== 'string' || creatorId.length > 100) return false;
  const expected = Buffer.from(unsubscribeSignature(masterKey, creatorId));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
