// What an agent reads about each account tool, keyed by tool name: a title, what the tool does, when to use it and
// what to call next (spec: tool descriptions guide the agent through setup). The annotations are declared in
// tool-effects.ts. The endpoint table (api/agent/endpoints.ts) stays the one list of tools; a test checks every tool
// there has an entry here.

export interface ToolDoc {
  title: string;
  does: string;
  when: string;
  next: string;
}

export const TOOL_DOCS: Readonly<Record<string, ToolDoc>> = {
  svc_whoami: {
    title: 'Who am I',
    does: 'Shows this credential: auth mode (agent_key or oauth), principal, granted and hard-denied scopes, organizations.',
    when: 'to check which organization and scopes you are working with.',
    next: 'svc_doctor for a health check of every app.',
  },
  svc_doctor: {
    title: 'Doctor',
    does:
      'Diagnoses the credential and every app: auth mode, scopes, ' +
      'organizations, app count and per-app SDK-init freshness, with the problems found.',
    when: 'first, at the start of any session; it needs no scope.',
    next: 'svc_provision when there is no app yet, else svc_integration_status for an app.',
  },
  svc_create_org: {
    title: 'Create organization',
    does:
      'Creates an organization owned by the human behind this credential. An OAuth grant reaches it at once (it is ' +
      'added to the grant); an agent key cannot (it belongs to one organization: working there needs a key of the new one).',
    when: 'only when the human asks for a separate organization.',
    next: 'with OAuth, svc_provision with org_name; with an agent key, ask the human for a key of the new organization.',
  },
  svc_search_store: {
    title: 'Search app stores',
    does: 'Searches the public app store catalogue by words.',
    when: 'to find the store listing of the app being integrated.',
    next: 'svc_scrape_store for the listing, then svc_provision with its store URL.',
  },
  svc_scrape_store: {
    title: 'Read store listing',
    does: 'Reads one public store listing (name, description, icon, URLs) by URL or numeric id.',
    when: 'to prefill the app name, description and store URL.',
    next: 'svc_check_slug, then svc_provision.',
  },
  svc_check_slug: {
    title: 'Check slug',
    does: 'Tells whether a slug (the first path segment of referral links) is free, and why not.',
    when: 'before choosing an app slug.',
    next: 'svc_provision with that slug.',
  },
  svc_provision: {
    title: 'Provision app and campaign',
    does:
      'Idempotently finds or creates the organization (org_name: a new one only for an OAuth grant, added to the ' +
      'grant; with an agent key another name is refused, see svc_create_org), the app with its SDK key, webhook ' +
      'secret and purchase API key (both returned only when the app is created), a campaign, and activates it. ' +
      'activate defaults to true: left out while the wallet is below the minimum escrow, the campaign stays ' +
      'draft and the answer names next_tool svc_get_wallet_topup_link; activate true refuses the whole call with 402 instead.',
    when: 'to set up a new app in one call; repeating it answers the same ids.',
    next: 'svc_get_join_link to recruit a creator, then wire the SDK with the returned sdk_key and svc_test_integration.',
  },
  svc_regenerate_webhook_secret: {
    title: 'Regenerate webhook secret',
    does:
      'Issues a new webhook secret, returned once; the old one stops working and the ' +
      'webhook counts as connected again only after the provider sends with the new one.',
    when: 'only when the secret was lost or leaked.',
    next: 'give the new secret to the human for the provider dashboard; svc_integration_status.',
  },
  svc_get_validation_status: {
    title: 'Validation status',
    does: 'Shows the purchase-validation path per platform (subscription provider or store-direct) and its readiness.',
    when: 'to decide how purchases reach the service.',
    next: 'svc_get_credential_upload_link for store-direct, else wire the provider webhook.',
  },
  svc_setup_subprovider: {
    title: 'Wire the subscription provider',
    does:
      "Wires the provider webhook automatically through the provider's REST API with the " +
      "app's stored provider key (a new webhook secret goes straight to the provider), or " +
      'answers numbered dashboard steps; always the webhook URL and the two subscriber attributes.',
    when:
      'once per app on the subscription-provider path, after the human ' +
      'uploaded the provider key (platform subprovider) if autowiring is wanted.',
    next: 'svc_integration_status; if it returned steps, hand them to the human.',
  },
  svc_get_credential_upload_link: {
    title: 'Credential upload link',
    does: 'Returns a short-lived signed link where a human uploads store credentials; secrets never pass through the agent.',
    when: 'when a platform should validate purchases store-direct.',
    next: 'give the link to the human, then svc_validate_store_credentials.',
  },
  svc_set_apple_meta: {
    title: 'Set Apple settings',
    does: 'Sets the non-secret Apple settings: issuer id, key id, environment, store app id, bundle id.',
    when: 'before validating iOS store credentials.',
    next: 'svc_validate_store_credentials with platform ios.',
  },
  svc_validate_store_credentials: {
    title: 'Green-check store credentials',
    does: 'Runs the live check of the uploaded store credentials with the store; answers ok, failed or retryable.',
    when: 'after the human uploaded credentials; repeat while retryable.',
    next: 'svc_activate_store_direct once the status is ok.',
  },
  svc_activate_store_direct: {
    title: 'Activate store-direct',
    does: 'Switches a platform to store-direct purchase validation (only after the green-check passed).',
    when: 'after svc_validate_store_credentials answered ok.',
    next: 'svc_integration_status.',
  },
  svc_integration_status: {
    title: 'Integration status',
    does:
      'The 8-step integration checklist with evidence and whether the app is live (every step done); ' +
      'next_actions for open steps, each naming its tool (next_tool) and REST call; attributed_conversion_count ' +
      "(attributed conversions of purchases that came through the app's real path: provider webhook, " +
      '/sdk/purchase or the direct purchase webhook, in any environment, sandbox included) and ' +
      'production_attributed_conversion_count; test_integration (the last svc_test_integration run, which ' +
      'completes no step); campaign health (production only); sdk_less_attribution {ready, missing[]}: whether ' +
      'store offer codes attribute purchases with no client code (store notifications or the provider webhook, and ' +
      'an active offer code), beside the checklist and never part of live.',
    when: 'to see what is left to do; after a real purchase in the app (a sandbox purchase is enough), poll it until live is true.',
    next: 'the next_tool of each next action.',
  },
  svc_recent_events: {
    title: 'Recent events',
    does: 'Lists recent SDK events and purchase webhooks with attribution flags, filterable by environment.',
    when: 'to check the app and the provider are sending.',
    next: 'svc_verify_user_conversions for one user.',
  },
  svc_test_integration: {
    title: 'Test integration',
    does:
      'Pushes a synthetic sandbox INITIAL_PURCHASE through the real pipeline (a Temporal workflow) and reports the ' +
      'attribution; sends progress when asked and returns the workflow id. Needs an active campaign with at least one ' +
      'creator. No money moves. It proves the pipeline but completes no checklist step (svc_integration_status reports it as ' +
      'test_integration).',
    when: 'after a creator joined, to prove the pipeline end to end.',
    next:
      'a real purchase in the app (a sandbox purchase is enough) by a ' +
      'user with a creator code, then poll svc_integration_status until live.',
  },
  svc_verify_user_conversions: {
    title: 'Verify user conversions',
    does: "Shows one app user's conversions and their attribution.",
    when: 'to check a test or real purchase was attributed.',
    next: 'svc_integration_status.',
  },
  svc_list_apps: {
    title: 'List apps',
    does: 'Lists the apps of the granted organizations.',
    when: 'to find an app id.',
    next: 'svc_get_app or svc_integration_status.',
  },
  svc_get_app: {
    title: 'Get app',
    does:
      'Reads one app: settings, slug, SDK key, validation providers, the localized maps name_i18n, description_i18n and ' +
      'tagline_i18n (locale to text) with each locale fresh or stale in i18n, and creator_code_settings ' +
      '{mirror_free_access_to_subprovider}.',
    when: 'to read an app before changing it.',
    next: 'svc_update_app.',
  },
  svc_update_app: {
    title: 'Update app',
    does:
      'Changes the listed app fields; anything else (credentials, slug) is refused naming the field. A map (name_i18n, ' +
      'description_i18n, tagline_i18n: language code such as de or pt-BR to text) replaces that map whole and marks its locales ' +
      'fresh against the current text; changing name, description or tagline marks the translations stale. ' +
      'creator_code_settings.mirror_free_access_to_subprovider (default false) needs the provider key uploaded first, else 409 ' +
      'naming svc_get_credential_upload_link.',
    when: 'to fix app settings or translations.',
    next: 'svc_get_app.',
  },
  svc_list_campaigns: {
    title: 'List campaigns',
    does:
      'Lists the campaigns of the granted organizations, each with its lifetime ' +
      'production stats; app_id and status (draft, active, paused, archived) narrow the list.',
    when: 'to find a campaign id.',
    next: 'svc_get_campaign.',
  },
  svc_get_campaign: {
    title: 'Get campaign',
    does:
      'Reads one campaign: type, status, commission, bonus_rules (each with its id), and stats, ' +
      'its lifetime production counters {clicks, installs, attributed_installs, conversions (paid, ' +
      'refunds not uncounted), revenue_usd and commission_usd (net of refunds)}; sandbox never counts.',
    when: 'to check a campaign.',
    next: 'svc_update_campaign or svc_set_campaign_status; svc_get_campaign_funnel for a period.',
  },
  svc_update_campaign: {
    title: 'Update campaign',
    does:
      'Changes a campaign name, description, commission or bonus_rules ([{threshold_conversions, bonus_usd, ' +
      'name?}], at most 10): the list replaces the rules by threshold (same threshold updated for future awards, a ' +
      'missing one deactivated, a new one added), and creators already past a saved threshold earn it at once, never twice.',
    when: 'to adjust terms or set milestone bonuses.',
    next: 'svc_get_campaign; svc_list_bonus_awards after saving a rule creators already reached.',
  },
  svc_create_campaign: {
    title: 'Create campaign',
    does: 'Creates a campaign of an app as DRAFT (public, private or invite_only), optionally with bonus_rules (milestone bonuses).',
    when: 'for another campaign of an existing app.',
    next: 'svc_set_campaign_status to activate it.',
  },
  svc_set_campaign_status: {
    title: 'Activate or pause campaign',
    does: 'Activates (needs the wallet minimum: else a top-up hint) or pauses a campaign; re-setting the current status changes nothing.',
    when: 'to start or stop attribution for a campaign.',
    next: 'svc_get_join_link after activation; svc_get_wallet_topup_link when refused for funds.',
  },
  svc_list_bonus_awards: {
    title: 'List bonus awards',
    does:
      'Lists milestone bonus awards with creator identity, fraud-aware progress, needs_review (an approved award a ' +
      'refund flagged) and the review_decisions each still takes; a campaign_id of another organization is not found.',
    when: 'to review earned or flagged awards.',
    next: 'svc_review_bonus_award.',
  },
  svc_review_bonus_award: {
    title: 'Review bonus award',
    does:
      'Approves (reserves the amount in the wallet) or voids an earned award; voids an approved award until ' +
      'it is paid (its reservation is released); approving an approved award a refund flagged keeps it. ' +
      'Voided and paid awards are final (409 naming the state). Payouts of approved awards are run by a human operator.',
    when: 'after checking an award.',
    next: 'svc_list_bonus_awards.',
  },
  svc_list_reviews: {
    title: 'List commission reviews',
    does:
      'Lists commissions the fraud signals raised for review, held open ones first, each with amount, status (open, ' +
      'approved, voided), action (hold: not payable until decided; flag: paid as usual) and its signals with the ' +
      'evidence in words; filters status (default all), signal, creator_id, app_id, action.',
    when: 'to review suspicious commissions before they are paid.',
    next: 'svc_review_commission.',
  },
  svc_review_commission: {
    title: 'Review commission',
    does:
      'Approves a commission under review (it then follows its holding period) or voids it (a held one releases its ' +
      'reservation once; one already payable or paid is taken back from the creator). A repeat of the decision ' +
      'answers the first; the other decision after one is 409.',
    when: 'after reading the review and its evidence.',
    next: 'svc_list_reviews.',
  },
  svc_get_analytics_overview: {
    title: 'App analytics',
    does: 'App overview for a period (production only).',
    when: 'to report how an app performs.',
    next: 'svc_get_campaign_funnel or svc_list_top_affiliates.',
  },
  svc_get_campaign_funnel: {
    title: 'Campaign funnel',
    does: 'Clicks, installs, trials, conversions, revenue and commission of a campaign.',
    when: 'to find where a campaign loses users.',
    next: 'svc_get_daily_performance.',
  },
  svc_list_top_affiliates: {
    title: 'Top creators',
    does: 'Ranks creators by results for a period.',
    when: 'to see who performs.',
    next: 'svc_list_affiliates.',
  },
  svc_get_daily_performance: {
    title: 'Daily performance',
    does: 'Per-day performance of a campaign.',
    when: 'to see trends.',
    next: 'svc_get_campaign_funnel.',
  },
  svc_list_commissions: {
    title: 'Campaign commissions',
    does:
      "Lists a campaign's commissions, newest first, each with the basis it was computed on (gross or proceeds) and the " +
      'amounts behind it: price, tax, store fee, base, exact or estimated.',
    when: 'to check what creators earn on, or what a refund took back.',
    next: 'svc_update_campaign to change commission_basis (applies to later purchases).',
  },
  svc_list_affiliates: {
    title: 'List campaign creators',
    does: 'Lists the creators of a campaign with their codes.',
    when: 'to see who joined.',
    next: 'svc_invite_creator for more.',
  },
  svc_invite_creator: {
    title: 'Invite creator',
    does: 'Invites one creator by email (PENDING, occupies a marketplace slot and one email of the daily budget).',
    when: 'to recruit a known creator into a campaign.',
    next: 'svc_list_invitations; svc_get_wallet_topup_link when refused for capacity.',
  },
  svc_invite_creators_batch: {
    title: 'Invite creators (batch)',
    does: 'Invites up to 100 creators at once with per-item results (partial success).',
    when: 'to recruit several creators.',
    next: 'svc_list_invitations.',
  },
  svc_get_join_link: {
    title: 'Join link',
    does: 'Returns the public join-page URL of a campaign (optionally in a language) and readiness warnings.',
    when: 'to let creators join an active campaign themselves.',
    next: 'share the URL; after a creator joined, svc_test_integration.',
  },
  svc_list_invitations: {
    title: 'List invitations',
    does: 'Lists invitations (default: pending).',
    when: 'to follow up on invitations.',
    next: 'svc_withdraw_invitation to free a slot.',
  },
  svc_withdraw_invitation: {
    title: 'Withdraw invitation',
    does: 'Withdraws a pending invitation: its link stops admitting and its marketplace slot is freed.',
    when: 'to free capacity or cancel an invite.',
    next: 'svc_list_invitations.',
  },
  svc_list_free_codes: {
    title: 'List free-access codes',
    does:
      'Lists free-access (comp) codes of an app with seats and expiry; with code, answers that one code and ' +
      'redemptions[] (app_user_id, granted_at, expires_at), newest first, limit up to 100, next_cursor passed back as cursor.',
    when: 'to review comp access or who redeemed a code.',
    next: 'svc_create_free_code.',
  },
  svc_create_free_code: {
    title: 'Create free-access code',
    does: 'Creates a free-access code (entitlement, duration, seats, expiry) granted by the service itself.',
    when: 'to give reviewers or partners access.',
    next: 'svc_list_free_codes.',
  },
  svc_add_offer_code: {
    title: 'Add offer code',
    does:
      'Gives a campaign member a store offer code that attributes purchases with no click and no SDK: ios value = the ' +
      "App Store offer's reference name (Apple sends only that name, so make one offer per creator in App Store " +
      'Connect), custom_code = what people type (builds redeem_url); android value = a Play offer id with product_id ' +
      'and base_plan_id, or an offer tag declared for this creator alone. 409 naming value when the app already has ' +
      "it on that platform (another creator's or retired); 404 when the creator is not an active member.",
    when: 'to run a creator programme without client code, or beside the SDK for store offers.',
    next: 'svc_list_offer_codes; svc_integration_status shows sdk_less_attribution.',
  },
  svc_list_offer_codes: {
    title: 'List offer codes',
    does: "Lists a creator's offer codes in a campaign, active and retired, each with match, redeem_url and status.",
    when: 'to check which store offers name a creator, or to hand a creator their redemption link.',
    next: 'svc_add_offer_code or svc_retire_offer_code.',
  },
  svc_retire_offer_code: {
    title: 'Retire offer code',
    does:
      'Stops an offer code attributing new purchases; past attributions stay, and the value is never handed to ' +
      'anyone else. A repeat answers the retired code.',
    when: 'when a creator leaves or an offer ends.',
    next: 'svc_list_offer_codes.',
  },
  svc_list_assets: {
    title: 'List assets',
    does: 'Lists marketing assets of an app, filterable by type and category.',
    when: 'to pick assets for creators.',
    next: 'svc_set_asset_featured.',
  },
  svc_set_asset_featured: {
    title: 'Feature asset',
    does: 'Features or unfeatures a marketing asset.',
    when: 'to highlight an asset for creators.',
    next: 'svc_list_assets.',
  },
  svc_get_asset_upload_link: {
    title: 'Asset upload link',
    does:
      'Returns a short-lived signed link (15 minutes, works once) where a human uploads ' +
      'marketing assets: up to 10 files (PNG, JPEG, GIF, WebP, PDF, MP4; 10 MB each) in one ' +
      'form post; a script may POST the same URL as multipart/form-data with one `file` part per file.',
    when: 'when the app needs assets.',
    next: 'give the link to the human; the files then appear in svc_list_assets.',
  },
  svc_get_wallet: {
    title: 'Wallet',
    does:
      'Read-only: balance, reserved, safe available, whether campaigns can be activated, invite ' +
      'capacity, auto-recharge, commissions by state (held, unfunded, payable, paid) and clawbacks outstanding.',
    when: 'before activating or inviting.',
    next: 'svc_get_wallet_topup_link when funds are short.',
  },
  svc_get_wallet_topup_link: {
    title: 'Top-up link',
    does: 'Returns a short-lived signed link where the human tops up the wallet; no money moves here.',
    when: 'after a refusal for funds (402).',
    next: 'give the link to the human, then retry the refused call.',
  },
  svc_localize_campaign: {
    title: 'Localize campaign',
    does: 'Stores per-locale campaign copy (marked fresh against the current source text).',
    when: 'to reach creators in other languages.',
    next: 'svc_get_join_link with lang.',
  },
  svc_localize_app: {
    title: 'Localize app',
    does: 'Stores per-locale app name, description and tagline.',
    when: 'to localize the join page.',
    next: 'svc_get_join_link with lang.',
  },
};

/** The tool description: what it does, when to use it, what to call next. */
export function describeTool(doc: ToolDoc): string {
  return `${doc.does} Use it ${doc.when} Next: ${doc.next}`;
}
