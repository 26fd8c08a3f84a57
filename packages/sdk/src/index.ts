// The platform-neutral core: build a client for any JavaScript runtime by injecting its pieces. Apps use the
// `web` or `react-native` entry, which do this for their platform.
export { createClient, DEFAULT_BASE_URL, type CoreDeps, type SvcCore } from './client.js';
export * from './public.js';
