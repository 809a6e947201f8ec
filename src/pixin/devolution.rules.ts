// A devolution (the standard's refund of a received Pix), the same whichever API asked for it:
// checked against its Pix (window, nature, caps), the money HELD on the receiving account
// when requested, then settled by the simulated rail (devolution-settlement.ts).
import type { Kysely } from 'kysely';
import { takeBackSplitParts } from '../splits/splits.service';
import type {
  Database,
  DevolucaoNatureza,
  NewPixDevolution,
  PixDevolution,
  PixReceived,
  RequestedNatureza,
} from '../db/schema';
import { applyMove } from '../ledger/ledger.service';
import { newReturnId } from '../lib/ids';
import { cents } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import * as repo from './pixin.repository';
import { money } from './pixin.view';

// The standard's window: 90 days from the original settlement, on the server clock.
export const DEVOLUTION_WINDOW_MS = 90 * 24 * 3600 * 1000;

export interface DevolutionInput {
  value: number;
  natureza: RequestedNatureza;
  descricao: string | null;
  correlationId?: string | null;
}

export type DevolutionRefusalCode =
  'ID_IN_USE' | 'OUTSIDE_WINDOW' | 'NOT_A_WITHDRAWAL' | 'ABOVE_REFUNDABLE' | 'INSUFFICIENT_BALANCE';

export type DevolutionResult =
  | { ok: true; devolution: PixDevolution; created: boolean }
  | { ok: false; code: DevolutionRefusalCode; message: string; field: string; value: string };

// What is still refundable of a Pix with each nature: the purchase part (ORIGINAL) and the
// withdrawal part (RETIRADA, Pix Saque and Pix Troco only), minus devolutions not refused.
// Returns under the MED (MED_OPERACIONAL, MED_FRAUDE) come out of the purchase part, as the
// standard caps them with ORIGINAL at the Pix value.
export async function refundableOf(
  trx: Kysely<Database>,
  pix: PixReceived,
): Promise<Record<RequestedNatureza, number>> {
  const devolved = await repo.devolvedByNature(trx, pix.end_to_end_id);
  const purchase = devolved.ORIGINAL + devolved.MED_OPERACIONAL + devolved.MED_FRAUDE;
  return {
    ORIGINAL: Math.max(0, pix.value - pix.withdrawal_value - purchase),
    RETIRADA: Math.max(0, pix.withdrawal_value - devolved.RETIRADA),
  };
}

// All that is still refundable of a Pix, whatever the nature (a platform return's cap).
export async function refundableTotal(trx: Kysely<Database>, pix: PixReceived): Promise<number> {
  const refundable = await refundableOf(trx, pix);
  return refundable.ORIGINAL + refundable.RETIRADA;
}

function sameRequest(d: PixDevolution, input: DevolutionInput): boolean {
  return (
    d.value === input.value && d.natureza === input.natureza && (d.descricao ?? null) === (input.descricao ?? null)
  );
}

type Refusal = Extract<DevolutionResult, { ok: false }>;

// Why a new devolution of the Pix cannot be asked for: the window, the nature, what is left.
async function refusalOf(
  trx: Kysely<Database>,
  pix: PixReceived,
  input: DevolutionInput,
  now: Date,
): Promise<Refusal | undefined> {
  if (now.getTime() - pix.settled_at.getTime() > DEVOLUTION_WINDOW_MS) {
    return {
      ok: false,
      code: 'OUTSIDE_WINDOW',
      field: 'horario',
      value: pix.settled_at.toISOString(),
      message: 'The devolution window of 90 days from the settlement of the Pix has ended',
    };
  }
  if (input.natureza === 'RETIRADA' && pix.withdrawal_value === 0) {
    return {
      ok: false,
      code: 'NOT_A_WITHDRAWAL',
      field: 'natureza',
      value: 'RETIRADA',
      message: 'The Pix has no withdrawal part (it is not a Pix Saque or Pix Troco): only natureza ORIGINAL applies',
    };
  }
  const refundable = (await refundableOf(trx, pix))[input.natureza];
  if (input.value > refundable) {
    const part =
      input.natureza === 'RETIRADA' ? 'withdrawal part' : pix.withdrawal_value > 0 ? 'purchase part' : 'value';
    return {
      ok: false,
      code: 'ABOVE_REFUNDABLE',
      field: 'valor',
      value: money(input.value),
      message: `The devolution exceeds what is left to return of the Pix ${part}: at most ${money(refundable)}`,
    };
  }
  return undefined;
}

// Requests devolution `id` of a Pix the caller has locked (FOR UPDATE). The same id with the
// same request answers the existing devolution.
export async function requestDevolution(
  trx: Kysely<Database>,
  pix: PixReceived,
  id: string,
  input: DevolutionInput,
  now: Date,
): Promise<DevolutionResult> {
  const existing = await repo.findDevolution(trx, pix.company_id, pix.end_to_end_id, id);
  if (existing) {
    if (sameRequest(existing, input)) return { ok: true, devolution: existing, created: false };
    return {
      ok: false,
      code: 'ID_IN_USE',
      field: 'id',
      value: id,
      message: `The devolution id ${id} is already used for this Pix with another request`,
    };
  }
  const refused = await refusalOf(trx, pix, input, now);
  if (refused) return refused;
  const valor = money(input.value);
  const rtrId = newReturnId(OWN_ISPB, now);
  // A split payment's parts give back their share of the refund first (src/splits).
  if (pix.charge_id) await takeBackSplitParts(trx, pix, input.value, rtrId, now);
  const hold = await applyMove(trx, {
    moveId: `devolucao-hold:${rtrId}`,
    legs: [{ accountId: pix.account_id, kind: 'HOLD', bucket: 'blocked', amount: cents(input.value) }],
    at: now,
    description: `Devolution ${id} of Pix ${pix.end_to_end_id} held until settled`,
  });
  if (!hold.ok) {
    return {
      ok: false,
      code: 'INSUFFICIENT_BALANCE',
      field: 'valor',
      value: valor,
      message: 'The available balance of the account does not cover the devolution',
    };
  }
  const devolution = await repo.insertDevolution(
    trx,
    newDevolutionRow(pix, { ...input, id, rtrId, correlationId: input.correlationId ?? null }, now),
  );
  return { ok: true, devolution, created: true };
}

// A return the platform itself makes of a received Pix (never asked for through the APIs): a
// funds recovery decided in favour of the payer (natureza MED_*), a cashback paid back to
// the customer (ORIGINAL). The caller caps the value at what is refundable (refundableOf) and
// locks the Pix. Unlike a requested devolution it has no 90-day window (the MED has its own
// deadlines) and takes no split parts back: the money comes from the receiving account only,
// out of its available balance or out of its security block (`from: 'security'`: the block
// is released and the value held for the rail in one move, so it is never free between the two). Undefined when the available balance does not cover it (nothing written).
// Settled by the rail like any devolution (devolution-settlement.ts).
export async function requestPlatformReturn(
  trx: Kysely<Database>,
  pix: PixReceived,
  input: { id: string; value: number; natureza: DevolucaoNatureza; descricao: string; from: 'available' | 'security' },
  now: Date,
): Promise<PixDevolution | undefined> {
  const rtrId = newReturnId(OWN_ISPB, now);
  const amount = cents(input.value);
  const hold = await applyMove(trx, {
    moveId: `devolucao-hold:${rtrId}`,
    legs: [
      ...(input.from === 'security'
        ? [{ accountId: pix.account_id, kind: 'RELEASE' as const, bucket: 'security' as const, amount }]
        : []),
      { accountId: pix.account_id, kind: 'HOLD', bucket: 'blocked', amount },
    ],
    at: now,
    description: `Devolution ${input.id} of Pix ${pix.end_to_end_id} held until settled`,
  });
  if (!hold.ok) return undefined;
  return repo.insertDevolution(trx, newDevolutionRow(pix, { ...input, rtrId, correlationId: null }, now));
}

// A devolution as it starts, requested or the platform's own: in processing until the rail
// settles it.
function newDevolutionRow(
  pix: PixReceived,
  d: {
    id: string;
    rtrId: string;
    value: number;
    natureza: DevolucaoNatureza;
    descricao: string | null;
    correlationId: string | null;
  },
  now: Date,
): NewPixDevolution {
  return {
    end_to_end_id: pix.end_to_end_id,
    id: d.id,
    company_id: pix.company_id,
    account_id: pix.account_id,
    charge_id: pix.charge_id,
    rtr_id: d.rtrId,
    value: d.value,
    natureza: d.natureza,
    descricao: d.descricao,
    status: 'EM_PROCESSAMENTO',
    motivo: null,
    correlation_id: d.correlationId,
    transaction_id: null,
    requested_at: now,
    settled_at: null,
  };
}
