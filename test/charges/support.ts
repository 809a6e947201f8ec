// Helpers of the charges tests: a company with its Pix API token and default key, and the
// verification of payload JWS against the server's published keys.
import * as assert from 'uvu/assert';
import { createLocalJWKSet, compactVerify, decodeProtectedHeader } from 'jose';
import { findDefaultKey } from '../../src/keys/keys.repository';
import { parseBrCode, type ParsedBrCode } from '../../src/lib/brcode';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';

export interface ChargesCompany extends TestCompany {
  bearer: string;
  key: string;
}

export async function chargesCompany(server: TestServer, body: Record<string, unknown> = {}): Promise<ChargesCompany> {
  const company = await createCompany(server.client, body);
  const bearer = await pixToken(server.client, company);
  const key = (await findDefaultKey(server.database.db, company.companyId))!.key;
  return { ...company, bearer, key };
}

export function decodeBrCode(brCode: string): ParsedBrCode {
  const parsed = parseBrCode(brCode);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  return parsed.value;
}

// Fetches a payload location and verifies its JWS with the server's JWKS; returns header and payload.
export async function fetchPayload(
  server: TestServer,
  location: string,
): Promise<{ status: number; header?: Record<string, unknown>; payload?: any; body: any; contentType: string | null }> {
  const path = location.slice(location.indexOf('/qr/v2/'));
  const res = await server.client.get(path);
  const contentType = res.headers.get('content-type');
  if (res.status !== 200) return { status: res.status, body: res.body, contentType };
  const jwks = await server.client.get('/.well-known/jwks.json');
  const verified = await compactVerify(res.text, createLocalJWKSet(jwks.body));
  return {
    status: 200,
    header: decodeProtectedHeader(res.text) as Record<string, unknown>,
    payload: JSON.parse(new TextDecoder().decode(verified.payload)),
    body: res.text,
    contentType,
  };
}

// Moves the company's sandbox clock forward.
export async function advanceClock(server: TestServer, company: { appID: string }, seconds: number): Promise<void> {
  const res = await server.client.post('/api/v1/sandbox/clock/advance', { seconds }, { auth: company.appID });
  assert.is(res.status, 200, res.text);
}

export const TXID = (n: number) => `pixgateTestTxid${String(n).padStart(10, '0')}abc`;
