// Marks an operation whose feature issue is still open. The dispatcher does not register it,
// so openapi-backend's notImplemented handler answers 501 in the API's own format.
import type { Handler } from './types';

const PENDING = Symbol('pending');

export const pending: Handler<any> & { [PENDING]: true } = Object.assign(
  async (): Promise<never> => {
    throw new Error('a pending operation was called directly');
  },
  { [PENDING]: true as const },
);

export function isPending(handler: unknown): boolean {
  return typeof handler === 'function' && PENDING in handler;
}
