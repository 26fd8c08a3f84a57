// PLACEHOLDER: being implemented (issue 3).
import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';

export const identifyBody = { type: 'object' };

export async function identify(_ctx: AppContext): Promise<void> {
  throw new AppError(501, 'not implemented yet');
}
export const IDENTIFY_RATE = { name: 'identify', limit: 2, windowMs: 1000 };
