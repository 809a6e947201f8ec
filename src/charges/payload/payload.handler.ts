// HTTP in/out of the open payload locations: compact JWS as application/jose.
import type { PixHandlers } from '../../../generated/pix.operations';

const JOSE = 'application/jose';

export const payloadHandlers = {
  async getCobPayload(req, ctx) {
    const jws = await ctx.services.chargePayloads.cobPayload(req.params.pixUrlAccessToken);
    return { status: 200, body: jws, contentType: JOSE, headers: { 'Cache-Control': 'no-store' } };
  },
  async getCobvPayload(req, ctx) {
    const jws = await ctx.services.chargePayloads.cobvPayload(
      req.params.pixUrlAccessToken,
      req.query.codMun,
      req.query.DPP,
    );
    return { status: 200, body: jws, contentType: JOSE, headers: { 'Cache-Control': 'no-store' } };
  },
} satisfies Partial<PixHandlers>;
