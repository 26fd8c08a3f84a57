// The one audit wrapper of the REST tables (the agent API's rows, api/agent/routes.ts, and the dashboard's,
// api/dashboard/rest.ts): after a successful state-changing call, one audit_log entry naming who did it (the table's
// `actor`), the action, the route's path as target type and its first path parameter as target id. Reads and
// refused calls (status >= 400) write nothing.
import { recordAudit, type AuditEntry } from '../../actions/audit.js';
import type { AppContext, Middleware } from '../context.js';

type Entry = AuditEntry;
export type AuditActor = Pick<Entry, 'orgId' | 'actorType' | 'actorId' | 'action'>;

export function audited(method: string, path: string, actor: (ctx: AppContext) => AuditActor | undefined): Middleware {
  return async (ctx, next) => {
    await next();
    if (method === 'get' || ctx.status >= 400) return;
    const who = actor(ctx);
    if (!who) return;
    await recordAudit(ctx.deps, {
      ...who,
      targetType: path,
      targetId: Object.values(ctx.params as Record<string, string>)[0] ?? null,
      requestId: ctx.state.requestId,
      ip: ctx.state.clientIp,
    });
  };
}
