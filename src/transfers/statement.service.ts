// The statement of the calling application's account: its ledger movements in a period with
// the running balance.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Principal } from '../identity/principal.types';
import { requireLinkedAccount } from '../keys/keys.public';
import { statementOf } from '../ledger/ledger.service';
import type { Page } from '../lib/paging';
import { statementEntryView } from '../subaccounts/subaccounts.public';

export class StatementService {
  constructor(private readonly db: Kysely<Database>) {}

  async ofAccount(principal: Principal, period: { start?: Date; end?: Date }, page: Page) {
    const account = await requireLinkedAccount(this.db, principal);
    const rows = await statementOf(this.db, account.id, period, page);
    return rows.map((r) => statementEntryView(r));
  }
}
