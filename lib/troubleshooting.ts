// The spec's troubleshooting causes ("Errors": troubleshooting causes), placed beside the open checklist steps they
// explain on the dashboard's setup page. Pure: which cause belongs to which step is decided here.
import type { ChecklistStep } from './integration-checklist.js';

const CAUSES = {
  init: 'Nothing on the setup page means init did not run or the SDK key is wrong.',
  organic:
    'An organic install means the tap and the first launch were on ' +
    'different networks, the attribution window passed, or the campaign is inactive.',
  providerPath: 'No purchase events on the subscription-provider path means a wrong webhook URL or Authorization value.',
  storeDirect: 'No purchase events on the store-direct path means the credentials are not green or the platform is not switched.',
  unattributed: 'An unattributed purchase means the subscriber lacks svc_code or the user is already attributed to another creator.',
} as const;

export function troubleshootingFor(step: ChecklistStep, storeDirect: boolean): string[] {
  switch (step) {
    case 'campaign_active':
      return [CAUSES.organic];
    case 'sdk_initialized':
    case 'sdk_event_received':
      return [CAUSES.init];
    case 'validation_configured':
    case 'purchase_webhook_seen':
      return [storeDirect ? CAUSES.storeDirect : CAUSES.providerPath];
    case 'subprovider_webhook_wired':
      return [CAUSES.providerPath];
    case 'attributed_conversion':
      return [CAUSES.unattributed, CAUSES.organic];
    default:
      return [];
  }
}
