// Dedup keys of SDK events (spec "/sdk/event"): funnel milestones are kept once per user and property set; any
// event without an event_id is dropped when an identical one arrived within 60 seconds. The canonical JSON and the
// SHA-256 keys live in the SDK package (packages/sdk/src/event-key.ts), the one I/O-free module the SDK derives
// its event ids from (rule 5), so client and server can never hash differently. Imported through the package's public
// entry, whose dist/ `npm install` (prepare) builds; eslint.config.js forbids reaching into packages/sdk/src.
export { canonicalJson, contentHash, singletonKey, SINGLETON_EVENT_TYPES, type EventIdentity } from '@svc/sdk/event-key';

export const IDENTICAL_EVENT_WINDOW_SECONDS = 60;
