// What other areas may use of accounts: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/accounts/ is the area's own.
export { openAccountRegister, settleAccountRegister } from './account-registers.repository';
export {
  accountUserEmails,
  closeAccount,
  findAccountCompanies,
  findAccountOfCompany,
  findAccountParty,
  findAccountsOfCompany,
  findCompanyAccount,
  findDefaultOpenAccount,
  findLocalAccount,
  insertBankAccount,
  type AccountParty,
  type AccountWithCompany,
  type LocalAccount,
} from './accounts.repository';
