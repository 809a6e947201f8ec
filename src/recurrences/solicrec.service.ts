// Recurrence confirmation requests (solicrec, journey 1): the receiver asks the payer's PSP to
// confirm a recurrence. The payer's PSP is simulated: a request is sent at once (CRIADA, then
// ENVIADA) and answered through the sandbox (sandbox-rec.service.ts); it expires at
// calendario.dataExpiracaoSolicitacao (recurrences job).
import type { Kysely } from 'kysely';
import type { components } from '../../generated/pix.types';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import { isValidCnpj, isValidCpf } from '../lib/taxid';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { randomAlphanumeric } from '../lib/ids';
import { OWN_ISPB } from '../lib/psp';
import { changeRequestStatus } from './rec-state';
import { OPEN_REQUEST } from './rec.rules';
import * as repo from './recurrences.repository';
import { recPayloadView, solicRecView } from './recurrences.view';

type S = components['schemas'];
export type SolicRecSolicitada = S['SolicRecSolicitada'];

const NOT_FOUND = (id: string) => errors.notFound(`No recurrence confirmation request has id ${id}.`);

// "SC" + ISPB + UTC yyyyMMdd + 11 alphanumerics (29 characters).
export function newIdSolicRec(at: Date): string {
  return 'SC' + OWN_ISPB + at.toISOString().slice(0, 10).replace(/-/g, '') + randomAlphanumeric(11);
}

export class SolicRecService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, input: SolicRecSolicitada): Promise<S['SolicRecCompleta']> {
    checkDestinatario(input.destinatario);
    return this.db.transaction().execute(async (trx) => {
      const rec = await repo.lockRecurrence(trx, principal.companyId, input.idRec);
      if (!rec) throw errors.notFound(`No recurrence has idRec ${input.idRec}.`);
      const now = await this.clock.now(principal.companyId, trx);
      const expiry = new Date(input.calendario.dataExpiracaoSolicitacao);
      if (Number.isNaN(expiry.getTime()) || expiry < now) {
        throw errors.validation(
          [
            {
              field: 'solicrec.calendario.dataExpiracaoSolicitacao',
              message: 'calendario.dataExpiracaoSolicitacao cannot be before the creation date',
              value: input.calendario.dataExpiracaoSolicitacao,
            },
          ],
          'The confirmation request breaks the schema or is semantically wrong.',
        );
      }
      if (rec.status !== 'CRIADA') {
        throw errors.validation(
          [
            {
              field: 'solicrec.idRec',
              message: `The recurrence is ${rec.status}; only a CRIADA recurrence can be confirmed`,
              value: rec.id_rec,
            },
          ],
          'The recurrence cannot receive a confirmation request.',
        );
      }
      const open = (await repo.lockRequestsOfRecurrence(trx, rec.id_rec)).filter((r) =>
        OPEN_REQUEST.includes(r.status),
      );
      if (open.length) {
        throw errors.validation(
          [
            {
              field: 'solicrec.idRec',
              message: 'An active confirmation request exists for the recurrence',
              value: rec.id_rec,
            },
          ],
          'An active confirmation request already exists for this recurrence.',
        );
      }
      const at = now.toISOString();
      const created = await repo.insertRecRequest(trx, {
        id: newIdSolicRec(now),
        company_id: principal.companyId,
        id_rec: rec.id_rec,
        status: 'CRIADA',
        body: JSON.stringify({
          calendario: input.calendario,
          destinatario: input.destinatario,
          recPayload: recPayloadView(rec),
        }),
        history: JSON.stringify([{ status: 'CRIADA', data: at }]),
        expires_at: expiry,
        created_at: now,
      });
      // The payer's PSP is reached at once (simulated). The journey stays undecided until
      // the payer accepts the request (journey 1) or approves another way.
      const sent = await changeRequestStatus(trx, created, 'ENVIADA', now);
      return solicRecView(sent, rec);
    });
  }

  async get(principal: Principal, id: string): Promise<S['SolicRecCompleta']> {
    const found = await repo.findRecRequestWithRec(this.db, principal.companyId, id);
    if (!found) throw NOT_FOUND(id);
    return solicRecView(found.request, found.rec);
  }

  // PATCH: only cancellation, from CRIADA, ENVIADA or RECEBIDA.
  async cancel(principal: Principal, id: string): Promise<S['SolicRecCompleta']> {
    return this.db.transaction().execute(async (trx) => {
      const found = await repo.lockRecRequestWithRec(trx, principal.companyId, id);
      if (!found) throw NOT_FOUND(id);
      const { request, rec } = found;
      if (!OPEN_REQUEST.includes(request.status)) {
        throw errors.validation(
          [{ field: 'solicrec.status', message: `The request status is ${request.status}`, value: request.status }],
          'Only requests with status CRIADA, ENVIADA or RECEBIDA can be cancelled.',
        );
      }
      const now = await this.clock.now(principal.companyId, trx);
      return solicRecView(await changeRequestStatus(trx, request, 'CANCELADA', now), rec);
    });
  }

  // Open requests past their expiry become EXPIRADA (recurrences job).
  async expireDue(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const due = await repo.claimExpiredRequests(trx, 100);
      for (const request of due) {
        await changeRequestStatus(trx, request, 'EXPIRADA', await this.clock.now(request.company_id, trx));
      }
      return due.length;
    });
  }
}

// The payer's CPF or CNPJ with valid check digits, as everywhere else a person is named.
function checkDestinatario(destinatario: SolicRecSolicitada['destinatario']): void {
  const issue =
    'cpf' in destinatario
      ? isValidCpf(destinatario.cpf)
        ? undefined
        : { field: 'solicrec.destinatario.cpf', message: 'cpf is not a valid CPF', value: destinatario.cpf }
      : isValidCnpj(destinatario.cnpj)
        ? undefined
        : { field: 'solicrec.destinatario.cnpj', message: 'cnpj is not a valid CNPJ', value: destinatario.cnpj };
  if (issue) throw errors.validation([issue], 'The confirmation request breaks the schema or is semantically wrong.');
}
