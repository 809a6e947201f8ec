// Handlers of authenticated operations read the caller through this (set by security).
import type { Principal } from '../identity/principal.types';
import type { RequestContext } from './types';

export function callerOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw new Error('authenticated operation reached without a principal');
  return ctx.principal;
}
