// Contract scenarios of receipts: a Pix the company received (paid through the sandbox when
// it is there, else written as the money-in area writes it; see catalog.ts).
import { catalogScenarios } from './catalog';
import type { Scenario } from './types';

export const receiptScenarios: Record<string, Scenario> = {
  async getReceipt(env, example) {
    const { params } = await catalogScenarios.getTransaction!(env, example);
    return params ? { params: { ReceiptType: 'pix-in', EndToEndId: params.id! } } : {};
  },
};
