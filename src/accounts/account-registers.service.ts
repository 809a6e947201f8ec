// Account registers: read by correlationID (or, by path, by CNPJ), delete while PENDING.
// Messages are the seed's. The read answers its validation issues as an array in `error`
// (the seed's issue shape). Registers are opened by KYC onboarding submits (src/kyc).
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { AccountRegisterRow, Database } from '../db/schema';
import { DomainError, errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { onlyDigitsAndLetters } from '../lib/taxid';
import { findCompany } from '../identity/identity.public';
import * as repo from './account-registers.repository';

const MAX_CORRELATION_ID = 255;

export function accountRegisterView(r: AccountRegisterRow): components['schemas']['AccountRegister'] {
  return {
    officialName: r.official_name,
    tradeName: r.trade_name,
    type: r.type,
    taxID: { taxID: r.tax_id, type: r.tax_id_type },
    status: r.status,
    correlationID: r.correlation_id,
  };
}

// The spec's ValidationIssue names the lower bound only; a too_big issue says its maximum.
type Issue = components['schemas']['ValidationIssue'] & { maximum?: number };

function issues(list: Issue[]): DomainError {
  return new DomainError('VALIDATION', 400, 'Validation error', { errorBody: list });
}

export class AccountRegistersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  // GET /account-register?correlationID=: the register of that correlationID.
  async get(principal: Principal, correlationID: string) {
    const id = await this.checkedId(principal, correlationID, {
      name: 'correlationID',
      required: 'Account register correlationID is required',
    });
    return this.viewOrNotFound(await repo.findAccountRegister(this.db, principal.companyId, id));
  }

  // GET /account-register/{id}: the register whose correlationID is id, else the newest live
  // register of the CNPJ id names (masked or not); the path existing clients read.
  async getByIdOrTaxId(principal: Principal, rawId: string) {
    const id = await this.checkedId(principal, rawId, { name: 'taxID', required: 'Tax ID is required' });
    const cnpj = onlyDigitsAndLetters(id).toUpperCase();
    const register =
      (await repo.findAccountRegister(this.db, principal.companyId, id)) ??
      (cnpj.length === 14 ? await repo.findAccountRegisterByTaxId(this.db, principal.companyId, cnpj) : undefined);
    return this.viewOrNotFound(register);
  }

  // The trimmed id of a read, refused in the seed's issue shape; the caller's company must exist.
  private async checkedId(
    principal: Principal,
    raw: string,
    field: { name: string; required: string },
  ): Promise<string> {
    const id = raw.trim();
    if (id.length === 0) {
      throw issues([
        {
          code: 'too_small',
          minimum: 1,
          type: 'string',
          inclusive: true,
          exact: false,
          message: field.required,
          path: [field.name],
        },
      ]);
    }
    if (id.length > MAX_CORRELATION_ID) {
      throw issues([
        {
          code: 'too_big',
          maximum: MAX_CORRELATION_ID,
          type: 'string',
          inclusive: true,
          exact: false,
          message: `Account register correlationID must have at most ${MAX_CORRELATION_ID} characters`,
          path: [field.name],
        },
      ]);
    }
    await this.requireCompany(this.db, principal);
    return id;
  }

  private viewOrNotFound(register: AccountRegisterRow | undefined) {
    if (!register) throw errors.missing('accountRegister');
    return accountRegisterView(register);
  }

  async remove(principal: Principal, rawId: string) {
    const id = rawId.trim();
    if (id.length === 0) throw errors.badRequest('Account register ID is required');
    return this.db.transaction().execute(async (trx) => {
      await this.requireCompany(trx, principal);
      const register = await repo.findAccountRegister(trx, principal.companyId, id);
      if (!register) throw errors.missing('accountRegister');
      if (register.status !== 'PENDING')
        throw errors.badRequest('Only account registers in PENDING status can be deleted');
      if (!(await repo.deletePendingRegister(trx, register.id, await this.clock.now(principal.companyId, trx))))
        throw errors.notFound('Failed to delete account register');
      return { message: 'Account register successfully deleted', accountRegisterId: register.correlation_id };
    });
  }

  private async requireCompany(db: Kysely<Database>, principal: Principal): Promise<void> {
    if (!(await findCompany(db, principal.companyId))) throw errors.badRequest('Company not found');
  }
}
