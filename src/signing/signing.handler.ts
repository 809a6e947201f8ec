// HTTP in/out of the public key set that verifies payload-location JWS.
import type { PixHandlers } from '../../generated/pix.operations';

export const jwksHandlers = {
  async getJwks(_req, ctx) {
    return {
      status: 200,
      body: await ctx.services.payloadKeys.jwks(),
      headers: { 'Cache-Control': 'public, max-age=300' },
    };
  },
} satisfies Partial<PixHandlers>;
