// What an app's SDK and a referral link record on the hot client paths: a link's click (api/links/follow-link.ts),
// an install and its attribution (api/sdk/track-install.ts), an identify (api/sdk/identify.ts), a referral code
// entered by hand (api/sdk/set-referral-code.ts), an SDK event (api/sdk/event.ts). Each is one statement or one
// transaction of its db module, the same round trips as when the handlers called it; handlers only translate input
// and output.
import type { Knex } from 'knex';
import { recordClick as insertClick, type NewClick } from '../db/clicks.js';
import { identifyUser as identifyInDb, type IdentifyInput, type IdentifyOutcome } from '../db/identify.js';
import { decideInstall, type InstallDecision, type TrackInstallInput } from '../db/install-attribution.js';
import { recordManualCodeEntry, type ManualCodeEntry, type ManualCodeOutcome } from '../db/manual-attribution.js';
import { recordSdkEvent as insertSdkEvent, type EventOutcome, type NewSdkEvent } from '../db/sdk-events.js';

type Deps = { db: Knex };

export async function recordClick(deps: Deps, click: NewClick): Promise<{ id: string; clicked_at: Date }> {
  return insertClick(deps.db, click);
}

export async function recordInstall(deps: Deps, input: TrackInstallInput): Promise<InstallDecision> {
  return decideInstall(deps.db, input);
}

export async function identifyUser(deps: Deps, input: IdentifyInput): Promise<IdentifyOutcome> {
  return identifyInDb(deps.db, input);
}

export async function enterReferralCode(deps: Deps, entry: ManualCodeEntry): Promise<ManualCodeOutcome> {
  return recordManualCodeEntry(deps.db, entry);
}

export async function recordSdkEvent(deps: Deps, event: NewSdkEvent): Promise<EventOutcome> {
  return insertSdkEvent(deps.db, event);
}
