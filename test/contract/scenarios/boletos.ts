// Contract scenarios of boletos: a BOLETO charge of the company, paid by its digitable line
// through the sandbox when it is there.
import { randomUUID } from 'node:crypto';
import type { ContractEnv, Scenario } from './types';

async function boletoCharge(env: ContractEnv): Promise<{ barcode: string; digitable: string }> {
  const res = await env.client.post(
    '/api/v1/charge',
    {
      type: 'BOLETO',
      correlationID: `boleto-${randomUUID()}`,
      value: 24290,
      daysForDueDate: 10,
      customer: { name: 'Rafael Souza Lima', taxID: '39053344705' },
    },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`boleto charge scenario: ${res.status} ${res.text}`);
  const boleto = res.body.charge.paymentMethods.boleto;
  return { barcode: boleto.boletoBarcode, digitable: boleto.boletoDigitable };
}

export const boletoScenarios: Record<string, Scenario> = {
  async sandboxPayBoleto(env, example) {
    const { digitable } = await boletoCharge(env);
    return { body: { ...(example as Record<string, unknown>), barcode: digitable } };
  },
  async getBoletoTransaction(env) {
    const { barcode } = await boletoCharge(env);
    const paid = await env.client.post('/api/v1/sandbox/boleto/pay', { barcode });
    if (paid.status !== 200) return {};
    return { params: { boletoTransactionID: paid.body.boletoTransaction.boletoTransactionID } };
  },
};
