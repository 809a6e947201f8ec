// Reads the payload of a dynamic BR Code the way a payer's institution does: fetches its
// location (field 26.25), verifies the JWS against the JWKS named by the header's jku, and
// takes txid, key and amount from the verified payload.
//
// Only locations on this server's public host are fetched, and only a jku on this server's
// public URL is trusted; a location on another host belongs to the simulated outside world
// (the caller pays it as such, without fetching: the sandbox reaches no other server).
import { decodeProtectedHeader } from 'jose';
import { verifyCompactJws } from '../lib/jws';
import { fail, ok, parseDecimalAmount, type Cents, type Result } from '../lib/money';

const FETCH_TIMEOUT_MS = 5000;

export interface DynamicPayload {
  txid: string;
  key: string;
  status: string;
  amount?: Cents;
  // modalidadeAlteracao 1: the payer may change the amount.
  amountEditable: boolean;
}

// Whether a location (host/path, no scheme) is on this server's public host.
export function isOwnLocation(locationUrl: string, publicUrl: string): boolean {
  const host = locationUrl.split('/')[0]!.toLowerCase();
  return host === new URL(publicUrl).host.toLowerCase();
}

async function get(url: string, accept: string): Promise<Result<string>> {
  try {
    const res = await fetch(url, {
      headers: { accept },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      redirect: 'error',
    });
    const text = await res.text();
    if (res.status !== 200) return fail(`${url} answered ${res.status}`);
    return ok(text);
  } catch (err) {
    return fail(`${url} could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
}

export async function readDynamicPayload(locationUrl: string, publicUrl: string): Promise<Result<DynamicPayload>> {
  const verified = await readLocationPayload(locationUrl, publicUrl);
  return verified.ok ? payloadOf(verified.value) : verified;
}

// The payload a location on this server signs (a cob, cobv or rec), its JWS verified.
export async function readLocationPayload(locationUrl: string, publicUrl: string): Promise<Result<unknown>> {
  const scheme = new URL(publicUrl).protocol;
  const fetched = await get(`${scheme}//${locationUrl}`, 'application/jose');
  if (!fetched.ok) return fetched;
  const jws = fetched.value.trim();
  let jku: unknown;
  try {
    jku = decodeProtectedHeader(jws).jku;
  } catch {
    return fail('the payload location did not answer a JWS');
  }
  if (typeof jku !== 'string' || !jku.startsWith(`${publicUrl}/`))
    return fail('the JWS jku is not on this server, so its keys are not trusted');
  const keys = await get(jku, 'application/json');
  if (!keys.ok) return keys;
  let jwks: { keys: object[] };
  try {
    jwks = JSON.parse(keys.value);
    if (!Array.isArray(jwks.keys)) return fail('the jku did not answer a JWKS');
  } catch {
    return fail('the jku did not answer a JWKS');
  }
  const verified = await verifyCompactJws(jws, jwks);
  if (!verified.ok) return fail(`the payload JWS does not verify: ${verified.reason}`);
  return ok(verified.value.payload);
}

function payloadOf(raw: unknown): Result<DynamicPayload> {
  const p = raw as {
    txid?: unknown;
    chave?: unknown;
    status?: unknown;
    valor?: { original?: unknown; final?: unknown; modalidadeAlteracao?: unknown };
  };
  if (
    !p ||
    typeof p !== 'object' ||
    typeof p.txid !== 'string' ||
    typeof p.chave !== 'string' ||
    typeof p.status !== 'string'
  ) {
    return fail('the payload lacks txid, chave or status');
  }
  const value = p.valor?.final ?? p.valor?.original;
  const out: DynamicPayload = {
    txid: p.txid,
    key: p.chave,
    status: p.status,
    amountEditable: p.valor?.modalidadeAlteracao === 1,
  };
  if (typeof value === 'string') {
    const amount = parseDecimalAmount(value);
    if (!amount.ok) return fail(`the payload amount is not valid: ${amount.reason}`);
    if (amount.value > 0) out.amount = amount.value;
  }
  return ok(out);
}
