// The payer's side of Pix Automático, simulated in sandbox mode: the payer approves a
// recurrence by one of the standard's four journeys, or rejects it (POST
// /api/v1/sandbox/rec/{idRec}/accept | reject). Open operations: the recurrence is found by
// its idRec alone, as the payer's PSP would.
//
// Journeys: 1, the open confirmation request is accepted; 2, the recurrence's own QR code
// (field 80); 3 and 4, the composite QR code of a cob or a cobv (field 26) and the
// recurrence (field 80): the payer pays that charge and approves in one transaction.
import type { Kysely } from 'kysely';
import type { operations } from '../../generated/platform.types';
import { tokenOfLocationUrl, findLocationWithCharge } from '../charges/charges.public';
import type { Charge, Database, RecJourney, RecLocation, RecPayer, RecRequest, Recurrence } from '../db/schema';
import { errors } from '../errors/errors';
import { parseCompositeBrCode } from '../lib/brcode';
import type { Clock } from '../db/clock';
import { newEndToEndId } from '../lib/ids';
import { cents } from '../lib/money';
import { settleIncomingPix } from '../pixin/receive.service';
import { answerRequest, changeRecStatus } from './rec-state';
import { OPEN_REQUEST } from './rec.rules';
import * as repo from './recurrences.repository';
import { recLocationUrl } from './recurrences.view';

// The payer's PSP when no confirmation request names one (a made-up ISPB of the outside world).
export const SANDBOX_PAYER_ISPB = '60701190';

type AcceptOperation = operations['sandboxAcceptRec'];
export type SandboxAcceptInput = NonNullable<AcceptOperation['requestBody']>['content']['application/json'];
export type SandboxAccepted = AcceptOperation['responses'][200]['content']['application/json'];
export type SandboxRejected = operations['sandboxRejectRec']['responses'][200]['content']['application/json'];

// How the payer approves: the journey, and for journeys 3 and 4 the charge it pays first.
interface Approval {
  journey: Exclude<RecJourney, 'AGUARDANDO_DEFINICAO'>;
  request?: RecRequest;
  charge?: { charge: Charge; locationUrl: string };
}

function refuse(field: string, message: string, value: string): never {
  throw errors.validation([{ field, message, value }], message);
}

export class SandboxRecService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async accept(idRec: string, input: SandboxAcceptInput = {}): Promise<SandboxAccepted> {
    return this.db.transaction().execute(async (trx) => {
      const rec = await lockAnswerable(trx, idRec);
      const now = await this.clock.now(rec.company_id, trx);
      const approval = await this.approvalOf(trx, rec, input.pixCopiaECola);
      let endToEndId: string | undefined;
      if (approval.charge) {
        endToEndId = await this.payCharge(trx, rec, approval.charge.charge, approval.charge.locationUrl);
      }
      // dadosJornada names the immediate charge of journey 3; the standard has the receiver
      // remove it when the payer approves by journey 1, 2 or 4.
      const { ativacao: _journeyData, ...rest } = rec.body;
      const body =
        approval.journey === 'JORNADA_3' && approval.charge
          ? { ...rest, ativacao: { dadosJornada: { txid: approval.charge.charge.txid } } }
          : rest;
      if (approval.request) await answerRequest(trx, approval.request, 'ACEITA', now);
      await changeRecStatus(trx, rec, 'APROVADA', now, {
        pagador: payerOf(rec, approval.request),
        journey: approval.journey,
        body,
      });
      return {
        idRec,
        status: 'APROVADA' as const,
        tipoJornada: approval.journey,
        ...(endToEndId ? { endToEndId } : {}),
      };
    });
  }

  async reject(idRec: string): Promise<SandboxRejected> {
    return this.db.transaction().execute(async (trx) => {
      const rec = await lockAnswerable(trx, idRec);
      const now = await this.clock.now(rec.company_id, trx);
      const request = (await repo.lockRequestsOfRecurrence(trx, rec.id_rec)).find((r) =>
        OPEN_REQUEST.includes(r.status),
      );
      if (request) await answerRequest(trx, request, 'REJEITADA', now);
      await changeRecStatus(trx, rec, 'REJEITADA', now, {
        encerramento: { rejeicao: { codigo: 'AP14', descricao: 'Rejeitada pelo usuario pagador' } },
      });
      return { idRec, status: 'REJEITADA' as const };
    });
  }

  // The journey of an approval: by the code the payer read, else by the open confirmation
  // request (1), else by the recurrence's own QR code (2).
  private async approvalOf(trx: Kysely<Database>, rec: Recurrence, code: string | undefined): Promise<Approval> {
    const locOf = async () =>
      rec.location_id !== null ? await repo.findRecLocationById(trx, Number(rec.location_id)) : undefined;
    if (code !== undefined) return this.approvalByCode(trx, rec, await locOf(), code);
    const request = (await repo.lockRequestsOfRecurrence(trx, rec.id_rec)).find((r) => OPEN_REQUEST.includes(r.status));
    if (request) return { journey: 'JORNADA_1', request };
    if (rec.location_id !== null) return { journey: 'JORNADA_2' };
    return refuse(
      'idRec',
      'The recurrence has no open confirmation request and no location: send pixCopiaECola or a solicrec',
      rec.id_rec,
    );
  }

  private async approvalByCode(
    trx: Kysely<Database>,
    rec: Recurrence,
    loc: RecLocation | undefined,
    code: string,
  ): Promise<Approval> {
    const parsed = parseCompositeBrCode(code);
    if (!parsed.ok) return refuse('pixCopiaECola', parsed.reason, code);
    const { recurrenceLocationUrl, chargeLocationUrl } = parsed.value;
    if (!loc || recLocationUrl(this.publicUrl, loc.token) !== recurrenceLocationUrl)
      return refuse('pixCopiaECola', 'Field 80 does not carry the location of this recurrence', recurrenceLocationUrl);
    if (chargeLocationUrl === undefined) return { journey: 'JORNADA_2' };
    const token = tokenOfLocationUrl(chargeLocationUrl);
    const found = token === undefined ? undefined : await findLocationWithCharge(trx, token);
    const charge = found?.charge;
    if (!charge || charge.company_id !== rec.company_id)
      return refuse('pixCopiaECola', 'Field 26 does not carry a charge of the receiver', chargeLocationUrl);
    if (charge.kind === 'cob' && charge.txid !== rec.body.ativacao?.dadosJornada?.txid)
      return refuse('pixCopiaECola', 'The immediate charge is not ativacao.dadosJornada.txid', charge.txid);
    return {
      journey: charge.kind === 'cob' ? 'JORNADA_3' : 'JORNADA_4',
      charge: { charge, locationUrl: chargeLocationUrl },
    };
  }

  // The payer pays the charge of the code (a cob its amount, a cobv what it costs today).
  private async payCharge(trx: Kysely<Database>, rec: Recurrence, charge: Charge, locationUrl: string) {
    const at = new Date();
    const devedor = rec.body.vinculo.devedor;
    const result = await settleIncomingPix(
      trx,
      {
        endToEndId: newEndToEndId(SANDBOX_PAYER_ISPB, at),
        value: charge.kind === 'cob' ? cents(charge.value) : 'amount-due',
        at,
        payer: { name: devedor.nome, taxId: 'cpf' in devedor ? devedor.cpf : devedor.cnpj, ispb: SANDBOX_PAYER_ISPB },
        locationUrl,
      },
      { publicUrl: this.publicUrl, now: (companyId, db) => this.clock.now(companyId, db) },
    );
    if (!result.ok) return refuse('pixCopiaECola', `The charge could not be paid: ${result.message}`, charge.txid);
    return result.endToEndId;
  }
}

async function lockAnswerable(trx: Kysely<Database>, idRec: string): Promise<Recurrence> {
  const rec = await repo.lockRecurrenceAnyCompany(trx, idRec);
  if (!rec) throw errors.missing('recurrence');
  if (rec.status !== 'CRIADA')
    refuse('idRec', `The recurrence is ${rec.status}; only a CRIADA recurrence can be answered`, rec.status);
  return rec;
}

// The payer: the confirmation request's (journey 1), else the contract's debtor.
function payerOf(rec: Recurrence, request: RecRequest | undefined): RecPayer {
  const party = request?.body.destinatario ?? rec.body.vinculo.devedor;
  const ispbParticipante = request?.body.destinatario.ispbParticipante ?? SANDBOX_PAYER_ISPB;
  return 'cpf' in party ? { cpf: party.cpf, ispbParticipante } : { cnpj: party.cnpj, ispbParticipante };
}
