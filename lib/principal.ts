// Who is calling. One type for every kind of credential (DESIGN.md "Auth and tenancy"); the authenticate
// middleware produces it and the guard reads it.
import type { Scope } from './scopes.js';

export type Principal =
  | { kind: 'sdk'; appId: string; orgId: string }
  | { kind: 'webhook'; appId: string; orgId: string }
  | { kind: 'purchase_api'; appId: string; orgId: string }
  | { kind: 'agent'; authMode: 'agent_key' | 'oauth'; id: string; orgIds: string[]; scopes: Scope[]; userId?: string; clientId?: string }
  | { kind: 'user'; userId: string; sessionId: string; orgIds: string[] }
  /** A creator signed in to the portal (docs/creator-portal.md): admitted there and nowhere else. */
  | { kind: 'creator'; creatorId: string; sessionId: string };

export type PrincipalKind = Principal['kind'];
export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;
