// What the agent's actions need from the agent API they serve, handed in by its handlers (api/agent/agent-edge.ts):
// the next call an error or answer points at (named from the endpoint table, which lives with the handlers) and the
// wallet's activation check, whose refusal points at the top-up tool. actions/ import nothing from api/.
import type { Knex } from 'knex';
import type { WalletTotals } from '../db/wallet-ledger.js';
import type { Config } from '../runtime/config.js';
import type { NextCall } from '../errors/http-errors.js';

export interface AgentEdge {
  /** The tool and its REST call (api/agent/next-action.ts). */
  nextAction(tool: string, params?: Readonly<Record<string, string>>): NextCall;
  /** Why the wallet cannot back an activation, or null (api/agent/wallet.ts). */
  activationShortfall(db: Knex, config: Config, orgId: string, totals?: WalletTotals): Promise<string | null>;
  /** 402 pointing at the top-up link unless the wallet covers the minimum escrow (api/agent/wallet.ts). */
  assertCanActivate(db: Knex, config: Config, orgId: string, totals?: WalletTotals): Promise<void>;
}
