// The facts the fraud signals read (lib/fraud-signals, docs/fraud-signals.md) for one attributed purchase, in ONE
// read-only statement: the earn runs it before it takes the organization lock (the lock serialises every reservation
// of the organization, so nothing slow may happen under it), and the release step runs it again before a commission
// becomes payable. Every part is bounded (a window and a limit) and indexed.
import type { Knex } from 'knex';
import {
  INSTALL_FARM_WINDOW_MINUTES,
  LEAKED_CODE_WINDOW_DAYS,
  REFUND_ABUSE_MIN_PURCHASES,
  REFUND_ABUSE_MIN_REFUNDS,
  REFUND_ABUSE_WINDOW_DAYS,
  SELF_REFERRAL_SIGHTING_WINDOW_DAYS,
} from '../lib/fraud-signals/index.js';
import type { Platform } from '../schema/types.js';
import { preparedRaw } from './prepared.js';

export interface FactsQuery {
  appId: string;
  /** The purchaser as the app knows them (null: no user id came with the purchase). */
  appUserId: string | null;
  creatorId: string;
  /** The creator code the conversion is attributed to (the leaked-code signal reads its redemptions). */
  creatorCodeId: string | null;
  /** When the purchase happened: windows end here. */
  at: Date;
}

export interface InstallFacts {
  id: string;
  ip: string | null;
  at: string;
  platform: Platform | null;
  os_version: string | null;
  language: string | null;
  timezone: string | null;
  screen: string | null;
  brand: string | null;
  model: string | null;
  referrer_click_at: string | null;
  install_begin_at: string | null;
  install_begin_server_at: string | null;
  ip_via_untrusted_proxy: boolean;
}

export interface FraudFactsRow {
  creator_email: string | null;
  identified_emails: string[];
  install: InstallFacts | null;
  click_at: string | null;
  sightings: { source: 'portal_sign_in' | 'join'; ip: string | null; user_agent: string | null; at: string }[];
  creator_installs: InstallFacts[];
  creator_refunds: { purchases: number; refunds: number };
  /** Counted only when the creator's own counts pass the rule's floors (else null: the app-wide count is skipped). */
  app_refunds: { purchases: number; refunds: number } | null;
  redemptions: { user_id: string; at: string; via: boolean }[];
}

const INSTALL_COLUMNS = (a: string) => `${a}.id, ${a}.ip, ${a}.created_at as at, ${a}.platform, ${a}.os_version, ${a}.language,
  ${a}.timezone, ${a}.screen_resolution as screen, ${a}.device_brand as brand, ${a}.device_model as model,
  ${a}.referrer_click_at, ${a}.install_begin_at, ${a}.install_begin_server_at, ${a}.ip_via_untrusted_proxy`;

// Bounds: a creator's sightings and installs in a window are few for an honest creator; a farm shows long before
// the limits (INSTALL_FARM_MIN_INSTALLS is 4). A code's redemptions in a week: the rule needs 20.
const SIGHTINGS_LIMIT = 50;
const SIGHTING_DAYS = SELF_REFERRAL_SIGHTING_WINDOW_DAYS;
const FARM_MINUTES = INSTALL_FARM_WINDOW_MINUTES;
const CREATOR_INSTALLS_LIMIT = 500;
const REDEMPTIONS_LIMIT = 1000;

const FACTS_SQL = `
with q as (select ?::text as app_id, ?::text as app_user_id, ?::text as creator_id, ?::text as code_id, ?::timestamptz as at),
ua as (
  select u.install_id, u.click_id from user_attributions u, q
  where u.app_id = q.app_id and u.app_user_id = q.app_user_id
),
ins as (
  select ${INSTALL_COLUMNS('i')} from installs i where i.id = (select install_id from ua)
),
codes as (select c.id from creator_codes c, q where c.creator_id = q.creator_id and c.app_id = q.app_id),
creator_counts as (
  select count(*)::int as purchases, count(*) filter (where v.refunded_at is not null)::int as refunds
  from conversions v, q
  where v.app_id = q.app_id and v.creator_id = q.creator_id and v.environment = 'PRODUCTION'
    and v.created_at > q.at - interval '${REFUND_ABUSE_WINDOW_DAYS} days'
)
select
  (select email from creators, q where creators.id = q.creator_id) as creator_email,
  (select coalesce(json_agg(distinct d.properties->>'email'), '[]') from identifies d, q
     where d.app_id = q.app_id and d.app_user_id = q.app_user_id and d.properties->>'email' is not null) as identified_emails,
  (select row_to_json(ins) from ins) as install,
  (select k.clicked_at from clicks k
     where k.id = coalesce((select click_id from ua), (select i.click_id from installs i where i.id = (select id from ins)))) as click_at,
  (select coalesce(json_agg(s), '[]') from (
     (select 'portal_sign_in' as source, x.ip, x.user_agent, x.created_at as at from creator_sessions x, q, ins
       where x.creator_id = q.creator_id and x.ip is not null
         and x.created_at between ins.at - interval '${SIGHTING_DAYS} days' and ins.at + interval '${SIGHTING_DAYS} days'
       order by x.created_at desc limit ${SIGHTINGS_LIMIT})
     union all
     (select 'join', c.join_ip, c.join_user_agent, c.joined_at from creator_codes c, q, ins
       where c.creator_id = q.creator_id and c.join_ip is not null
       order by c.joined_at desc limit ${SIGHTINGS_LIMIT})
   ) s) as sightings,
  (select coalesce(json_agg(f), '[]') from (
     select ${INSTALL_COLUMNS('i')} from installs i, ins
     where i.creator_code_id in (select id from codes) and i.attributed
       and i.created_at between ins.at - interval '${FARM_MINUTES} minutes' and ins.at + interval '${FARM_MINUTES} minutes'
     order by i.created_at limit ${CREATOR_INSTALLS_LIMIT}
   ) f) as creator_installs,
  (select row_to_json(creator_counts) from creator_counts) as creator_refunds,
  (select json_build_object('purchases', count(*), 'refunds', count(*) filter (where v.refunded_at is not null))
     from conversions v, q, creator_counts
     where creator_counts.purchases >= ${REFUND_ABUSE_MIN_PURCHASES} and creator_counts.refunds >= ${REFUND_ABUSE_MIN_REFUNDS}
       and v.app_id = q.app_id and v.environment = 'PRODUCTION' and v.created_at > q.at - interval '${REFUND_ABUSE_WINDOW_DAYS} days'
     having count(*) > 0) as app_refunds,
  (select coalesce(json_agg(r), '[]') from (
     select u.app_user_id as user_id, u.attributed_at as at,
       (u.click_id is not null or u.method in ('link_param', 'ip_device_match')) as via
     from user_attributions u, q
     where u.creator_code_id = q.code_id and u.attributed_at > q.at - interval '${LEAKED_CODE_WINDOW_DAYS} days'
       and u.attributed_at <= q.at + interval '1 minute'
     order by u.attributed_at desc limit ${REDEMPTIONS_LIMIT}
   ) r) as redemptions`;

/** The facts of one purchase; one statement, read-only. */
export async function readFraudFacts(db: Knex | Knex.Transaction, q: FactsQuery): Promise<FraudFactsRow> {
  const { rows } = await preparedRaw<FraudFactsRow>(db, FACTS_SQL, [q.appId, q.appUserId, q.creatorId, q.creatorCodeId, q.at]);
  return rows[0]!;
}
