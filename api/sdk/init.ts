// PLACEHOLDER: being implemented (issue 3).
import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';

export const initBody = { type: 'object' };

export async function init(_ctx: AppContext): Promise<void> {
  throw new AppError(501, 'not implemented yet');
}
