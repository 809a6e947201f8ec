// The statement of the calling application's account: its ledger movements in a period with
// the running balance.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal';
import { requireLinkedAccount } from '../keys/linked-account';
import { statementOf } from '../ledger/ledger.service';
import type { Page } from '../lib/paging';
import { statementEntryView } from '../subaccounts/subaccounts.view';

// start and end of a statement query; end before start is refused.
export function periodOf(query: { start?: string; end?: string }): { start?: Date; end?: Date } {
  const start = query.start ? new Date(query.start) : undefined;
  const end = query.end ? new Date(query.end) : undefined;
  if (start && end && end < start) {
    throw errors.validation(
      [{ field: 'end', in: 'query', message: 'is earlier than start', value: query.end! }],
      'Invalid end',
    );
  }
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

export class StatementService {
  constructor(private readonly db: Kysely<Database>) {}

  async ofAccount(principal: Principal, period: { start?: Date; end?: Date }, page: Page) {
    const account = await requireLinkedAccount(this.db, principal);
    const rows = await statementOf(this.db, account.id, period, page);
    return rows.map((r) => statementEntryView(r, false));
  }
}
