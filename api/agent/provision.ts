// POST /api/agent/provision: organization, app and campaign in one idempotent call, activated unless told not to.
// * Organization: the granted one named `org_name` (else the only granted one). A name the credential does not reach
//   creates that organization only for an OAuth grant (owned by its human and added to the grant: the consent covers
//   organizations the client creates; a repeat finds it by name); an agent key belongs to one organization, so there
//   it is 422 pointing at svc_create_org.
// * App matched by slug, campaign by name within the app: the same input twice answers the same ids and changes
//   nothing (PATCH changes existing rows). The SDK key is public and always shown; the webhook secret and purchase API
//   key only in the answer that created the app.
// * `activate` defaults to true. Left out, it activates a draft campaign when the wallet covers the minimum escrow and
//   otherwise leaves it in draft, answering `campaign_status: "draft"` with the top-up link as the next action (a
//   paused campaign stays paused: a human paused it). `activate: true` activates a draft or paused campaign or
//   refuses the whole call (402, nothing written).
// Every write of one call is one transaction (actions/provision.ts), serialized per organization by the wallet lock.
import type { AppContext } from '../context.js';
import { provision, type ProvisionInput } from '../../actions/provision.js';
import { inputOf } from '../middleware/validate.js';
import { AGENT_EDGE } from './agent-edge.js';
import { forgetAppCaches } from './app-caches.js';
import { APP_FIELDS, CAMPAIGN_FIELDS, CAMPAIGN_TYPE } from './field-schemas.js';
import { nextAction } from './next-action.js';
import { agentOf } from './principal.js';

const { name, description, support_email, ios_store_url, android_store_url, web_url } = APP_FIELDS;

export const provisionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['app', 'campaign'],
  properties: {
    org_name: { type: 'string', minLength: 1, maxLength: 200 },
    app: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name,
        slug: { type: 'string', minLength: 1, maxLength: 63 },
        description,
        support_email,
        ios_store_url,
        android_store_url,
        web_url,
      },
    },
    campaign: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'commission_percentage'],
      properties: { ...CAMPAIGN_FIELDS, campaign_type: CAMPAIGN_TYPE },
    },
    // No `default` keyword: left out is not the same as true (see the header).
    activate: {
      type: 'boolean',
      description:
        'Default true. Left out, a wallet below the minimum escrow leaves the campaign in ' +
        'draft (next_tool svc_get_wallet_topup_link); true refuses the whole call with 402 instead.',
    },
  },
} as const;

export async function provisionHandler(ctx: AppContext): Promise<void> {
  const input = inputOf<ProvisionInput>(ctx);
  const { org, app, campaign, notActivated, changed } = await provision({ ...ctx.deps, edge: AGENT_EDGE }, { agent: agentOf(ctx), input });
  if (changed) forgetAppCaches(ctx, app.id);
  const topUp = notActivated ? nextAction('svc_get_wallet_topup_link') : undefined;
  const notes = [
    ...(org.created ? [`Created the organization "${org.name}", owned by the human behind this OAuth grant and added to the grant.`] : []),
    ...(app.created
      ? []
      : [
          `The app already existed: its webhook secret and purchase API key were shown only when it was ` +
            `created. ${nextAction('svc_regenerate_webhook_secret', { app_id: app.id }).call} issues a new webhook secret.`,
        ]),
    ...(notActivated && topUp
      ? [
          `The campaign stays in draft. ${notActivated} As a ` +
            `tool: ${topUp.next_tool}, then svc_provision again (or svc_set_campaign_status) activates it.`,
        ]
      : []),
  ];
  ctx.status = org.created || app.created || campaign.created ? 201 : 200;
  ctx.body = {
    org_id: org.id,
    app_id: app.id,
    campaign_id: campaign.id,
    slug: app.slug,
    sdk_key: app.sdkKey,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`,
    created: { org: org.created, app: app.created, campaign: campaign.created },
    ...(app.created ? { webhook_secret: app.webhookSecret, purchase_api_key: app.purchaseApiKey } : {}),
    campaign_status: campaign.status,
    ...topUp,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
