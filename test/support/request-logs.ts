// A call as the request lifecycle hands it to the request log (src/http/app.ts: capturedRequest),
// for tests that record entries without making the call: GET /api/v1/account by the company's
// application, answered 200 now, under a new request id; `fields` changes any of it.
import { randomUUID } from 'node:crypto';
import type { CapturedRequest } from '../../src/request-logs/request-logs.types';
import type { TestCompany } from './fixtures';

export function capturedCall(
  company: Pick<TestCompany, 'companyId' | 'clientId'>,
  fields: Partial<CapturedRequest> = {},
): CapturedRequest {
  return {
    companyId: company.companyId,
    clientId: company.clientId,
    at: Date.now(),
    requestId: `captured-${randomUUID()}`,
    api: 'PLATFORM_API',
    method: 'GET',
    path: '/api/v1/account',
    query: '',
    operationId: 'listAccounts',
    status: 200,
    latencyMs: 1,
    idempotencyKey: undefined,
    ip: '127.0.0.1',
    userAgent: undefined,
    contentType: undefined,
    errorCode: undefined,
    errorMessage: undefined,
    ...fields,
  };
}
