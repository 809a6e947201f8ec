// Companies and credentials made through the public API, the way a user gets them.
import * as assert from 'uvu/assert';
import type { TestClient } from './server';

export interface TestCompany {
  companyId: string;
  accountId: string;
  appID: string;
  clientId: string;
  clientSecret: string;
  // The company's default (EVP) Pix key.
  pixKey: string;
}

export async function createCompany(client: TestClient, body: Record<string, unknown> = {}): Promise<TestCompany> {
  const res = await client.post('/api/v1/sandbox/companies', { name: 'Padaria Boa Vista', ...body });
  assert.is(res.status, 201, `sandbox company: ${res.text}`);
  const { company, account, application, pixKey } = res.body;
  return {
    companyId: company.id,
    accountId: account.accountId,
    appID: application.appID,
    clientId: application.clientId,
    clientSecret: application.clientSecret,
    pixKey: pixKey.key,
  };
}

export function basic(clientId: string, clientSecret: string): string {
  return 'Basic ' + Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
}

// A Pix API bearer token for the company (all scopes the application has, or those asked).
export async function pixToken(
  client: TestClient,
  company: { clientId: string; clientSecret: string },
  scope?: string,
): Promise<string> {
  const res = await client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
    auth: basic(company.clientId, company.clientSecret),
  });
  assert.is(res.status, 200, `token: ${res.text}`);
  return `Bearer ${res.body.access_token}`;
}
