// Transfers between two accounts of the same company (bank accounts or subaccounts), each
// named by one of its Pix keys; once per correlationID.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { findPixKeyOwner } from '../keys/keys.public';
import type { Clock } from '../db/clock';
import { validatePixKey } from '../lib/pix-key';
import { moveInternally } from './internal-move';

type TransferInput = components['schemas']['TransferCreatePayload'];

export class TransfersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, input: TransferInput) {
    const correlationID = input.correlationID ?? randomUUID();
    return this.db.transaction().execute(async (trx) => {
      const from = await this.ownAccountOf(trx, principal, input.fromPixKey, 'fromPixKey');
      const to = await this.ownAccountOf(trx, principal, input.toPixKey, 'toPixKey');
      if (from.accountId === to.accountId) throw errors.badRequest('fromPixKey and toPixKey reach the same account');
      const at = await this.clock.now(principal.companyId, trx);
      const moved = await moveInternally(trx, {
        moveId: `transfer:${principal.companyId}:${correlationID}`,
        companyId: principal.companyId,
        fromAccountId: from.accountId,
        toAccountId: to.accountId,
        value: input.value,
        at,
        description: `Transfer ${correlationID}`,
        details: { operation: 'TRANSFER', correlationID, destination: { pixKey: to.key } },
        reused: 'A transfer with this correlationID already exists with a different body',
      });
      return { value: input.value, time: moved.at.toISOString(), correlationID };
    });
  }

  // The open account of the caller's company that the key reaches.
  private async ownAccountOf(trx: Kysely<Database>, principal: Principal, raw: string, field: string) {
    const parsed = validatePixKey(raw.trim());
    const owner = parsed.ok ? await findPixKeyOwner(trx, parsed.value.key) : undefined;
    if (!owner || owner.company_id !== principal.companyId || owner.account_status !== 'OPEN') {
      const message = `${field} is not a Pix key of your company`;
      throw errors.validation([{ field, in: 'body', message }], message);
    }
    return { accountId: owner.account_id, key: owner.key };
  }
}
