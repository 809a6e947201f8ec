// HTTP in/out of the directory of Pix participants.
import type { PlatformHandlers } from '../../generated/platform.operations';

export const directoryHandlers = {
  async listPsps(req, ctx) {
    return { status: 200, body: { success: true, psps: ctx.services.directory.psps(req.query) } };
  },
} satisfies Partial<PlatformHandlers>;
