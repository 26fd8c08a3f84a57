// Which purchase-validation path a platform uses (spec: the two paths must never both be used). A platform is
// store-direct when its provider is the store verifier's name; null or 'subprovider' is the subscription provider.
export const STORE_VERIFIER = { ios: 'app_store', android: 'google_play' } as const;

export function isStoreDirect(
  platform: 'ios' | 'android' | 'web',
  providers: { ios_validation_provider: string | null; android_validation_provider: string | null },
): boolean {
  if (platform === 'ios') return providers.ios_validation_provider === STORE_VERIFIER.ios;
  if (platform === 'android') return providers.android_validation_provider === STORE_VERIFIER.android;
  return false;
}

/** The store platform of a subscription-provider event's `store` (APP_STORE, PLAY_STORE), if it has one. */
export function platformOfStore(store: string | null): 'ios' | 'android' | undefined {
  return store === 'APP_STORE' ? 'ios' : store === 'PLAY_STORE' ? 'android' : undefined;
}
