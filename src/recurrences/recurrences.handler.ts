// HTTP in/out of the recurrence family of the Pix API: locrec, rec, solicrec, cobr and the
// open recurrence payload location. Requests and answers are the generated types.
import type { PixHandlers } from '../../generated/pix.operations';
import { callerOf } from '../http/principal-guard';

const JOSE = 'application/jose';

export const recurrenceHandlers = {
  async createLocRec(_req, ctx) {
    const loc = await ctx.services.recLocs.create(callerOf(ctx));
    return { status: 201, body: loc, headers: { Location: loc.location } };
  },
  async listLocRecs(req, ctx) {
    return { status: 200, body: await ctx.services.recLocs.list(callerOf(ctx), req.query) };
  },
  async getLocRec(req, ctx) {
    return { status: 200, body: await ctx.services.recLocs.get(callerOf(ctx), req.params.id) };
  },
  async unlinkLocRecIdRec(req, ctx) {
    return { status: 200, body: await ctx.services.recLocs.unlink(callerOf(ctx), req.params.id) };
  },
  async createRec(req, ctx) {
    return { status: 201, body: await ctx.services.recs.create(callerOf(ctx), req.body) };
  },
  async getRec(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.recs.get(callerOf(ctx), req.params.idRec, req.query.txid),
    };
  },
  async listRecs(req, ctx) {
    return { status: 200, body: await ctx.services.recs.list(callerOf(ctx), req.query) };
  },
  async reviseRec(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.recs.revise(callerOf(ctx), req.params.idRec, req.body),
    };
  },
  async getRecPayload(req, ctx) {
    const jws = await ctx.services.recPayloads.recPayload(req.params.recUrlAccessToken);
    return { status: 200, body: jws, contentType: JOSE, headers: { 'Cache-Control': 'no-store' } };
  },
} satisfies Partial<PixHandlers>;

export const recurrenceChargeHandlers = {
  async createSolicRec(req, ctx) {
    return { status: 201, body: await ctx.services.solicrecs.create(callerOf(ctx), req.body) };
  },
  async getSolicRec(req, ctx) {
    return { status: 200, body: await ctx.services.solicrecs.get(callerOf(ctx), req.params.idSolicRec) };
  },
  async reviseSolicRec(req, ctx) {
    return {
      status: 201,
      body: await ctx.services.solicrecs.cancel(callerOf(ctx), req.params.idSolicRec),
    };
  },
  async putCobr(req, ctx) {
    return {
      status: 201,
      body: await ctx.services.cobrs.create(callerOf(ctx), req.params.txid, req.body),
    };
  },
  async createCobr(req, ctx) {
    return { status: 201, body: await ctx.services.cobrs.create(callerOf(ctx), undefined, req.body) };
  },
  async getCobr(req, ctx) {
    return { status: 200, body: await ctx.services.cobrs.get(callerOf(ctx), req.params.txid) };
  },
  async listCobrs(req, ctx) {
    return { status: 200, body: await ctx.services.cobrs.list(callerOf(ctx), req.query) };
  },
  async reviseCobr(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.cobrs.cancel(callerOf(ctx), req.params.txid, req.body.status),
    };
  },
  async retryCobr(req, ctx) {
    return {
      status: 201,
      body: await ctx.services.cobrs.retry(callerOf(ctx), req.params.txid, req.params.data),
    };
  },
} satisfies Partial<PixHandlers>;
