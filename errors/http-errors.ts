// The handful of domain errors every surface throws. One Koa middleware (api/middleware/errors.ts) turns them into
// the spec's `{"detail": ...}` bodies; anything else is a logged 500 with a generic message.

export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The action an error or an answer points at: its tool and its REST call (built by api/agent/next-action.ts). */
export interface NextCall {
  next_tool: string;
  call: string;
}

export class AppError extends Error {
  readonly expose = true;
  /** Where the caller goes from here, answered beside `detail`. */
  next?: NextCall;
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = new.target.name;
  }

  pointingAt(next: NextCall): this {
    this.next = next;
    return this;
  }
}

export class BadRequestError extends AppError {
  constructor(detail: string) {
    super(400, detail);
  }
}

/** 401. The message says how to fix it; it never echoes the credential that was sent. */
export class UnauthorizedError extends AppError {
  constructor(detail = 'Missing or invalid credentials. Send `Authorization: Bearer <key>`.') {
    super(401, detail, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class PaymentRequiredError extends AppError {
  constructor(detail: string | Record<string, unknown>) {
    super(402, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super(403, detail);
  }
}

export class MissingScopeError extends ForbiddenError {
  constructor(readonly scope: string) {
    super(`This credential lacks the scope '${scope}' required for this endpoint.`);
  }
}

export class NotFoundError extends AppError {
  constructor(detail = 'Not found') {
    super(404, detail);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, detail);
  }
}

export class ValidationError extends AppError {
  constructor(readonly problems: FieldProblem[]) {
    super(422, problems);
  }
}

export class UnavailableError extends AppError {
  constructor(detail: string, retryAfterSeconds?: number) {
    super(503, detail, retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {});
  }
}

/** Over a rate limit the spec wants a plain-text page, not JSON. */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds = 1) {
    super(429, 'Too Many Requests', { 'Retry-After': String(retryAfterSeconds) });
  }
}
