// Sections whose service is on another branch (events, request log): the pages exist, with
// their place in the menu, and say they are not available yet until routes.ts wires them.
import { errors } from '../../errors/errors';
import { page, type Answer, type DashContext } from '../context';
import { html } from '../view/html';
import { notYet } from '../view/parts';

export async function eventsPage(ctx: DashContext): Promise<Answer> {
  return page(
    'events',
    ctx.t.events,
    html`<h1>${ctx.t.events}</h1>
      ${notYet(ctx.t, 'events.list')}`,
  );
}

export async function requestLogPage(ctx: DashContext): Promise<Answer> {
  return page(
    'requests',
    ctx.t.requestLog,
    html`<h1>${ctx.t.requestLog}</h1>
      ${notYet(ctx.t, 'requestLogs.list')}`,
  );
}

// An event's or a request's detail: nothing can be found until the services exist.
export async function notFoundYet(): Promise<Answer> {
  throw errors.notFound('Not found');
}
