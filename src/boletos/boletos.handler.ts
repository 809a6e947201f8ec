// HTTP in/out of boleto transactions and of the sandbox boleto payer.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));

export const boletoHandlers = {
  async listBoletoTransactions(req, ctx) {
    const q = req.query;
    const page = { skip: q.skip ?? 0, limit: q.limit ?? 100 };
    const filter = Object.fromEntries(
      Object.entries({
        type: q.type,
        status: q.status,
        start: date(q.start),
        end: date(q.end),
        settledStart: date(q.settledStart),
        settledEnd: date(q.settledEnd),
      }).filter(([, v]) => v !== undefined),
    );
    const { transactions, hasNextPage } = await ctx.services.boletos.list(callerOf(ctx), filter, page);
    return {
      status: 200,
      body: {
        status: 'OK' as const,
        pageInfo: { ...page, hasPreviousPage: page.skip > 0, hasNextPage },
        boletoTransactions: transactions,
      },
    };
  },
  async getBoletoTransaction(req, ctx) {
    return {
      status: 200,
      body: { boletoTransaction: await ctx.services.boletos.get(callerOf(ctx), req.params.boletoTransactionID) },
    };
  },
  async sandboxPayBoleto(req, ctx) {
    return { status: 200, body: { boletoTransaction: await ctx.services.boletos.payByBarcode(req.body) } };
  },
} satisfies Partial<PlatformHandlers>;
