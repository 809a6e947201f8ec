// The payer's side of Pix Automático, simulated in sandbox mode: the payer approves or rejects
// a recurrence (POST /api/v1/sandbox/rec/{idRec}/accept | reject). Open operations: the
// recurrence is found by its idRec alone, as the payer's PSP would.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Clock } from '../lib/clock';
import { changeRecStatus, changeRequestStatus, OPEN_REQUEST } from './rec-state';
import * as repo from './recurrences.repository';

// The payer's PSP when no confirmation request names one (a made-up ISPB of the outside world).
export const SANDBOX_PAYER_ISPB = '60701190';

export class SandboxRecService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async answer(idRec: string, accept: boolean): Promise<{ idRec: string; status: 'APROVADA' | 'REJEITADA' }> {
    return this.db.transaction().execute(async (trx) => {
      const rec = await repo.lockRecurrenceAnyCompany(trx, idRec);
      if (!rec) throw errors.missing('recurrence');
      if (rec.status !== 'CRIADA') {
        throw errors.validation([
          {
            field: 'idRec',
            message: `The recurrence is ${rec.status}; only a CRIADA recurrence can be answered`,
            value: rec.status,
          },
        ]);
      }
      const now = await this.clock.now(rec.company_id, trx);
      const request = (await repo.lockRequestsOfRecurrence(trx, rec.id_rec)).find((r) =>
        OPEN_REQUEST.includes(r.status),
      );
      if (request) {
        const received =
          request.status === 'RECEBIDA' ? request : await changeRequestStatus(trx, request, 'RECEBIDA', now);
        await changeRequestStatus(trx, received, accept ? 'ACEITA' : 'REJEITADA', now);
      }
      if (!accept) {
        await changeRecStatus(trx, rec, 'REJEITADA', now, {
          rejeicao: { codigo: 'AP14', descricao: 'Rejeitada pelo usuario pagador' },
        });
        return { idRec, status: 'REJEITADA' as const };
      }
      const destinatario = request?.body.destinatario as
        { cpf?: string; cnpj?: string; ispbParticipante: string } | undefined;
      const devedor = rec.body.vinculo.devedor as { cpf?: string; cnpj?: string };
      const party = destinatario ?? devedor;
      const pagador = {
        ...(party.cpf ? { cpf: party.cpf } : { cnpj: party.cnpj }),
        ispbParticipante: destinatario?.ispbParticipante ?? SANDBOX_PAYER_ISPB,
      };
      await changeRecStatus(trx, rec, 'APROVADA', now, undefined, pagador);
      return { idRec, status: 'APROVADA' as const };
    });
  }
}
