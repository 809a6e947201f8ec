// Helpers of the recurrence tests: a company with its Pix API token, recurrence bodies whose
// dates follow the server clock, and the payload JWS verified with the server's JWKS.
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';

export interface RecCompany extends TestCompany {
  bearer: string;
}

export async function recCompany(server: TestServer, body: Record<string, unknown> = {}): Promise<RecCompany> {
  const company = await createCompany(server.client, body);
  return { ...company, bearer: await pixToken(server.client, company) };
}

// The company's today (its sandbox clock).
export async function today(server: TestServer, company: TestCompany): Promise<string> {
  const res = await server.client.get('/api/v1/sandbox/clock', { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return String(res.body.now).slice(0, 10);
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function recBody(start: string, extra: Record<string, unknown> = {}) {
  return {
    vinculo: {
      objeto: 'Plano Fibra 500 Mega',
      devedor: { cpf: '41927360552', nome: 'Carlos Eduardo Lima' },
      contrato: 'FN-2026-004817',
    },
    calendario: { dataInicial: start, dataFinal: addDays(start, 365), periodicidade: 'MENSAL' },
    valor: { valorRec: '119.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
    ...extra,
  };
}

// Moves the clocks of these companies forward together.
export async function advanceDays(server: TestServer, days: number, ...companies: TestCompany[]): Promise<void> {
  for (const company of companies) {
    const res = await server.client.post(
      '/api/v1/sandbox/clock/advance',
      { seconds: days * 86_400 },
      { auth: company.appID },
    );
    assert.is(res.status, 200, res.text);
  }
}
