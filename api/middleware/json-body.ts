// Reads a JSON body for methods that carry one. Not JSON (or not an object/array) is 400; too large is 413.
// Content-Type is not trusted: SDKs in the wild send JSON as text/plain, so every body is parsed as JSON, except
// the url-encoded forms of the dashboard's pages and multipart uploads.
import { BadRequestError, AppError, ValidationError } from '../../errors/http-errors.js';
import { findUnstorable } from '../../lib/storable.js';
import type { Middleware } from '../context.js';

const LIMIT_BYTES = 1024 * 1024;
export const NOT_JSON = 'Request body is not valid JSON.';
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The authorization server (api/oauth) reads its own bodies (form-encoded, as OAuth requires). */
const OWN_BODY_PREFIX = '/oauth/';

/** Where the dashboard's forms post: its pages and its REST (api/dashboard/rest.ts). */
const FORM_PREFIXES = [
  '/dashboard/',
  '/api/apps',
  '/api/campaigns',
  '/api/grants',
  '/api/invitations',
  '/api/bonus-awards',
  '/api/offer-codes',
  '/api/assets',
];

export const jsonBody: Middleware = async (ctx, next) => {
  if (!WITH_BODY.has(ctx.method) || ctx.path.startsWith(OWN_BODY_PREFIX)) return next();
  // Uploads are streamed by the route that takes them, under its own limits (api/middleware/multipart.ts).
  if (ctx.is('multipart/form-data')) return next();
  const raw = await readRaw(ctx.req);
  ctx.state.rawBody = raw;
  if (raw.length === 0) {
    ctx.state.body = undefined;
    return next();
  }
  // The dashboard's server-rendered forms post form-encoded fields (the last value wins; repeated names, like
  // ticked checkboxes, become arrays).
  if (FORM_PREFIXES.some((p) => ctx.path.startsWith(p)) && ctx.is('application/x-www-form-urlencoded')) {
    const form: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) {
      const prev = form[k];
      form[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    ctx.state.body = form;
    return next();
  }
  try {
    ctx.state.body = JSON.parse(raw.toString('utf8'));
  } catch {
    // Webhook routes authenticate first and then refuse the body themselves (an unauthenticated caller learns
    // nothing about parsing); everywhere else a broken body is refused here.
    if (!ctx.path.startsWith('/api/webhooks/')) throw new BadRequestError(NOT_JSON);
    ctx.state.bodyInvalid = true;
    return next();
  }
  if (!ctx.path.startsWith('/api/webhooks/')) {
    const problem = findUnstorable(ctx.state.body);
    if (problem) throw new ValidationError([problem]);
  }
  return next();
};

function readRaw(req: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMIT_BYTES) {
        reject(new AppError(413, `Request body exceeds ${LIMIT_BYTES} bytes.`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
