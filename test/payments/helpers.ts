// Money-out test helpers: funding through the ledger, the sandbox clock moved to a local
// (Brasília) hour, and short API calls.
import * as assert from 'uvu/assert';
import { applyMove, counterLeg, OUTSIDE } from '../../src/ledger/ledger.service';
import { localParts } from '../../src/limits/brasilia-time';
import type { TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';

let funded = 0;

// An outside credit of `amount` cents to the account.
export async function fund(server: TestServer, accountId: string, amount: number): Promise<void> {
  const result = await server.database.db.transaction().execute((trx) =>
    applyMove(trx, {
      moveId: `test-fund:${accountId}:${++funded}`,
      legs: [{ accountId, kind: 'CREDIT', amount: amount as never }, counterLeg(OUTSIDE, -amount)],
      at: new Date(),
    }),
  );
  assert.ok(result.ok, 'funding failed');
}

// Moves each company's sandbox clock forward to its next `hour`:05 Brasília time.
export async function advanceToLocalHour(server: TestServer, hour: number, ...companies: TestCompany[]): Promise<Date> {
  let reached = new Date();
  for (const company of companies) {
    const p = localParts(await server.services.clock.now(company.companyId));
    let seconds = ((hour - p.hour) * 3600 + (5 - p.minute) * 60 - p.second + 86_400) % 86_400;
    if (seconds === 0) seconds = 86_400;
    reached = await advanceCompanyClock(server, company, seconds);
  }
  return reached;
}

// Moves one company's sandbox clock forward; its new time.
export async function advanceCompanyClock(server: TestServer, company: TestCompany, seconds: number): Promise<Date> {
  const res = await server.client.post('/api/v1/sandbox/clock/advance', { seconds }, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return new Date(res.body.now);
}

export async function balanceOf(server: TestServer, company: TestCompany, accountId = company.accountId) {
  const res = await server.client.get(`/api/v1/account/${accountId}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body.account.balance as { total: number; blocked: number; available: number };
}

export function pay(
  server: TestServer,
  company: TestCompany,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return server.client.post('/api/v1/payment', body, { auth: company.appID, headers });
}

export function approve(server: TestServer, company: TestCompany, correlationID: string) {
  return server.client.post('/api/v1/payment/approve', { correlationID }, { auth: company.appID });
}

export const OUTSIDE_KEY = 'fornecedor@tecidosbrasil.com.br';
