// JSON Schemas of the app and campaign fields an agent may write, shared by create, patch and provision so one
// field has one rule (the same schemas validate requests and feed the OpenAPI document).

/** Required text: at least one non-blank character. */
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;
const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;
const url = { type: ['string', 'null'], format: 'uri', maxLength: 2048 } as const;

export const APP_FIELDS = {
  name: text(200),
  description: optionalText(5000),
  tagline: optionalText(300),
  support_email: { type: ['string', 'null'], format: 'email', maxLength: 254 },
  ios_store_url: url,
  android_store_url: url,
  web_url: url,
  attribution_window_hours: { type: 'integer', minimum: 1, maximum: 8760 },
} as const;

export const CAMPAIGN_FIELDS = {
  name: text(200),
  description: optionalText(5000),
  commission_percentage: { type: 'number', minimum: 0, maximum: 100 },
  /** Days a production commission is held before it becomes payable (refunds inside it reverse; after it, clawbacks). */
  holding_period_days: { type: 'integer', minimum: 0, maximum: 365 },
} as const;

/** Campaign types an agent may create (FREE_ACCESS belongs to free-access codes). */
export const CAMPAIGN_TYPE = { enum: ['public', 'private', 'invite_only'], default: 'public' } as const;

export type AgentCampaignType = (typeof CAMPAIGN_TYPE.enum)[number];
