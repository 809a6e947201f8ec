// A running server with one company and a Pix bearer token of every scope: what both contract
// suites (our examples and the standard's own) replay their requests against.
import { createCompany, pixToken } from '../../support/fixtures';
import { startTestServer, type TestServer } from '../../support/server';
import type { ContractEnv } from './types';

export async function startContractEnv(): Promise<{ server: TestServer; env: ContractEnv }> {
  const server = await startTestServer();
  const company = await createCompany(server.client);
  const bearer = await pixToken(server.client, company);
  const runJob = (name: string) => server.services.jobs.runNow(name);
  return { server, env: { client: server.client, company, bearer, db: server.database.db, runJob } };
}
