// Contract scenarios of the request log: calls of the company written to it before the read.
import { randomUUID } from 'node:crypto';
import type { ContractEnv, Scenario } from './types';

// A failed call of the company (a charge that does not exist) under a request id of our own,
// written to the log.
async function loggedFailure(env: ContractEnv): Promise<string> {
  const requestId = `contract-${randomUUID()}`;
  const res = await env.client.get('/api/v1/charge/no-such-charge', {
    auth: env.company.appID,
    headers: { 'x-request-id': requestId },
  });
  if (res.status !== 404) throw new Error(`request log scenario: ${res.status} ${res.text}`);
  if (!env.flushRequestLog) throw new Error('request log scenarios need flushRequestLog');
  await env.flushRequestLog();
  return requestId;
}

export const requestLogScenarios: Record<string, Scenario> = {
  async listRequestLogs(env) {
    await loggedFailure(env);
    return { query: { status: '4xx', operationId: 'getCharge', start: '2020-01-01T00:00:00Z' } };
  },
  async getRequestLog(env) {
    return { params: { requestId: await loggedFailure(env) } };
  },
};
