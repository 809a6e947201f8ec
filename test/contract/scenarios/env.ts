// A running server with one company and a Pix bearer token of every scope: what both contract
// suites (our examples and the standard's own) replay their requests against.
import { createCompany, pixToken } from '../../support/fixtures';
import { startTestServer, type TestServer } from '../../support/server';
import type { ContractEnv } from './types';

// The operator token of the contract server (operator operations replay with it).
export const CONTRACT_OPERATOR_TOKEN = 'contract-operator-token-0123456789abcdef';

export async function startContractEnv(): Promise<{ server: TestServer; env: ContractEnv }> {
  const server = await startTestServer({ PIXGATE_OPERATOR_TOKEN: CONTRACT_OPERATOR_TOKEN });
  const company = await createCompany(server.client);
  const bearer = await pixToken(server.client, company);
  const runJob = (name: string) => server.services.jobs.runNow(name);
  const flushRequestLog = () => server.services.requestLogs.flush();
  return { server, env: { client: server.client, company, bearer, db: server.database.db, runJob, flushRequestLog } };
}
