// HTTP in/out of the events API: GET /api/v1/events and GET /api/v1/events/{id}.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const eventHandlers = {
  async listEvents(req, ctx) {
    const q = req.query;
    const page = await ctx.services.events.list(callerOf(ctx).companyId, {
      ...(q.type !== undefined ? { types: q.type } : {}),
      ...(q.objectId !== undefined ? { objectId: q.objectId } : {}),
      ...(q.correlationID !== undefined ? { correlationId: q.correlationID } : {}),
      ...(q.start !== undefined ? { start: q.start } : {}),
      ...(q.end !== undefined ? { end: q.end } : {}),
      ...(q.skip !== undefined ? { skip: q.skip } : {}),
      ...(q.limit !== undefined ? { limit: q.limit } : {}),
      ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
    });
    return { status: 200, body: page };
  },
  async getEvent(req, ctx) {
    return { status: 200, body: { event: await ctx.services.events.get(callerOf(ctx).companyId, req.params.id) } };
  },
} satisfies Partial<PlatformHandlers>;
