// The store-direct gate's refusals (lib/store-purchase.ts storeDirectGate decides) in the words the API answers, a
// failed store purchase records and the notification endpoints return; they name the agent calls that fix them.

export function notSwitchedDetail(appId: string, platform: string): string {
  return (
    `The ${platform} platform of this app is not switched to store-direct validation: a passed green-check (POST ` +
    `/api/agent/apps/${appId}/validate-store-credentials) and POST /api/agent/apps/${appId}/activate-store-direct come first.`
  );
}

export function credentialsMissingDetail(platform: string): string {
  return platform === 'ios'
    ? 'The App Store credentials are missing: the app needs its uploaded key ' +
        'with the bundle id (credential-setup link), and the server APPLE_ROOT_CERTS.'
    : 'The Google Play service account is missing: upload it through the credential-setup link.';
}

/** The words of a closed gate: not switched, or switched but missing a credential (or, on iOS, trusted roots). */
export function gateRefusalDetail(appId: string, platform: string, gate: { switched: boolean }): string {
  return gate.switched ? credentialsMissingDetail(platform) : notSwitchedDetail(appId, platform);
}
