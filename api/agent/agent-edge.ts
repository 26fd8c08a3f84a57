// The agent API's pieces its actions are handed (actions/agent-edge.ts says why they are handed in).
import type { AgentEdge } from '../../actions/agent-edge.js';
import { nextAction } from './next-action.js';
import { activationShortfall, assertCanActivate } from './wallet.js';

export const AGENT_EDGE: AgentEdge = { nextAction, activationShortfall, assertCanActivate };
