// The account tied to the calling application, which key operations act on; a closed (or
// missing) one answers 400 "You need to link a Bank Account to this API".
import type { Kysely } from 'kysely';
import { findAccountOfCompany, type AccountWithCompany } from '../accounts/accounts.public';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';

export async function requireLinkedAccount(db: Kysely<Database>, principal: Principal): Promise<AccountWithCompany> {
  const account = await findAccountOfCompany(db, principal.companyId, principal.accountId);
  if (!account || account.status !== 'OPEN') throw errors.badRequest('You need to link a Bank Account to this API');
  return account;
}
