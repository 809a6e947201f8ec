// A company's default account: opened with the company (sandbox, demo data, a partner's first
// application) and found again by the areas that act on the company as a whole. Apart from
// accounts.service.ts because that service reads identity's features, and identity opens
// companies with this: one file for both would be an import cycle.
import { randomInt, randomUUID } from 'node:crypto';
import type { BankAccount, Db } from '../db/schema';
import { insertBankAccount } from './accounts.repository';

export { defaultOpenAccount, findOpenAccountOfCompany } from './accounts.repository';

export interface DefaultAccountInput {
  companyId: string;
  // The account's name: the company's name.
  name: string;
  now: Date;
}

// The open default account of a new company, at branch 0001 with a random account number.
export async function openDefaultAccount(trx: Db, input: DefaultAccountInput): Promise<BankAccount> {
  return insertBankAccount(trx, {
    id: randomUUID(),
    company_id: input.companyId,
    is_default: true,
    branch: '0001',
    account_number: String(randomInt(10_000_000, 99_999_999)),
    account_name: input.name,
    status: 'OPEN',
    created_at: input.now,
  });
}
