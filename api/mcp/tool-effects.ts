// What each account tool does to the account, as MCP's tool annotations tell a client (which uses them to decide what
// to confirm with the human and what it may retry). The method gives `readOnlyHint` (GET reads); the rest is declared
// here, one rule each, so an annotation is a decision about the tool's effect and never a default:
//   destructiveHint  a call ends something that someone else relies on and that no call can bring back: a rotated
//                    webhook secret (the provider's copy stops working), a voided award or commission under review, a
//                    withdrawn invitation (the invitee's link dies), a retired offer code (it never attributes again,
//                    and its value is never handed out again). Changes another call can undo (PATCH, pause, unfeature, a new translation)
//                    are updates, not destruction.
//   idempotentHint   a repeat with the same arguments has no further effect on the account: it answers the same (PATCH,
//                    provision, status set, localize, a signed link, which writes nothing) or is refused because the
//                    first call already did it (a taken free code, a pending invitation, a reviewed award: 409).
//                    Bookkeeping aside (audit rows, a check's time and attempt count).
//   openWorldHint    the call reaches people or systems outside the service: the public store catalogue, the stores'
//                    APIs (green-check), the subscription provider's API, a creator's mailbox.
// A test (test/integration/mcp-tools.test.ts) checks every listed tool against its own copy of these lists.

/** Calls that end something irrecoverably (see above). */
const DESTRUCTIVE_TOOLS: ReadonlySet<string> = new Set([
  'svc_regenerate_webhook_secret',
  'svc_setup_subprovider',
  'svc_review_bonus_award',
  'svc_review_commission',
  'svc_withdraw_invitation',
  'svc_retire_offer_code',
]);

/** Writes whose repeat does something again: a new organization or campaign, a new secret, a new sandbox purchase. */
const NOT_IDEMPOTENT_TOOLS: ReadonlySet<string> = new Set([
  'svc_create_org',
  'svc_create_campaign',
  'svc_regenerate_webhook_secret',
  'svc_setup_subprovider',
  'svc_test_integration',
]);

/** Calls that reach outside the service. */
const OPEN_WORLD_TOOLS: ReadonlySet<string> = new Set([
  'svc_search_store',
  'svc_scrape_store',
  'svc_validate_store_credentials',
  'svc_setup_subprovider',
  'svc_invite_creator',
  'svc_invite_creators_batch',
]);

export interface ToolEffects {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The annotations of an account tool served by an endpoint of `method`. */
export function toolEffects(name: string, method: 'get' | 'post' | 'patch'): ToolEffects {
  const readOnly = method === 'get';
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && DESTRUCTIVE_TOOLS.has(name),
    idempotentHint: readOnly || !NOT_IDEMPOTENT_TOOLS.has(name),
    openWorldHint: OPEN_WORLD_TOOLS.has(name),
  };
}
