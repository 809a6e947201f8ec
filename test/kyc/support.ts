// Helpers of the KYC tests: registers with representatives, code calls, the sandbox clock.
import * as assert from 'uvu/assert';
import type { TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';

const CPFS = ['52998224725', '39053344705', '26801573110', '85029375457', '07149875300'];
let cnpjSeq = 0;

// A valid CNPJ per call (root 10000000 + n, branch 0001).
export function nextCnpj(): string {
  const base = String(10_000_000 + ++cnpjSeq) + '0001';
  const digit = (s: string) => {
    const w = s.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = [...s].reduce((acc, c, i) => acc + Number(c) * w[i]!, 0) % 11;
    return r < 2 ? '0' : String(11 - r);
  };
  const d1 = digit(base);
  return base + d1 + digit(base + d1);
}

export interface Register {
  correlationID: string;
  reps: Array<{ id: string; email: string; phone: string }>;
}

// A register whose representatives i have e-mail emails[i] and phone +55119000000ii.
export async function register(
  server: TestServer,
  c: TestCompany,
  emails: string[],
  options: { targets?: number[] } = {},
): Promise<Register> {
  const correlationID = `reg-${nextCnpj()}`;
  const res = await server.client.post(
    '/api/v1/kyc/onboarding',
    {
      taxID: correlationID.slice(4),
      correlationID,
      representatives: emails.map((email, i) => ({
        taxID: CPFS[i],
        email,
        phone: `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        targetAdministrator: options.targets?.includes(i) ?? false,
      })),
    },
    { auth: c.appID },
  );
  assert.is(res.status, 201, res.text);
  return { correlationID, reps: res.body.onboarding.representatives };
}

export function codes(server: TestServer, c: TestCompany) {
  const call = (path: string, body: unknown) => server.client.post(path, body, { auth: c.appID });
  const outcome = async (path: string, body: unknown) => {
    const res = await call(path, body);
    assert.is(res.status, 200, res.text);
    return res.body.outcome as string;
  };
  return {
    sendEmail: (r: Register, i = 0) =>
      outcome('/api/v1/kyc/representatives/email-code/send', {
        correlationID: r.correlationID,
        representativeId: r.reps[i]!.id,
      }),
    sendPhone: (r: Register, i = 0) =>
      outcome('/api/v1/kyc/representatives/phone-code/send', {
        correlationID: r.correlationID,
        representativeId: r.reps[i]!.id,
      }),
    verifyEmail: (r: Register, code: string, i = 0) =>
      outcome('/api/v1/kyc/representatives/email-code/verify', {
        correlationID: r.correlationID,
        representativeId: r.reps[i]!.id,
        code,
      }),
    verifyPhone: (r: Register, code: string, i = 0) =>
      outcome('/api/v1/kyc/representatives/phone-code/verify', {
        correlationID: r.correlationID,
        representativeId: r.reps[i]!.id,
        code,
      }),
    submit: (r: Register) => call(`/api/v1/kyc/onboarding/${encodeURIComponent(r.correlationID)}/submit`, undefined),
  };
}

export async function lastCode(
  server: TestServer,
  representativeId: string,
  channel: 'EMAIL' | 'PHONE',
): Promise<string> {
  const res = await server.client.get(
    `/api/v1/sandbox/kyc/codes?representativeId=${representativeId}&channel=${channel}`,
  );
  assert.is(res.status, 200, res.text);
  return res.body.code;
}

// Moves the company's sandbox clock forward.
export async function advance(server: TestServer, company: TestCompany, seconds: number): Promise<void> {
  const res = await server.client.post('/api/v1/sandbox/clock/advance', { seconds }, { auth: company.appID });
  assert.is(res.status, 200, res.text);
}

// A 6-digit code different from the given one.
export function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}
