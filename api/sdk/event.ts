// PLACEHOLDER: being implemented (issue 3).
import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';

export const eventBody = { type: 'object' };

export async function trackEvent(_ctx: AppContext): Promise<void> {
  throw new AppError(501, 'not implemented yet');
}
export const eventAliases = {};
