// What other areas may use of keys: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/keys/ is the area's own.
export {
  deleteAccountKeys,
  findCompanyKey,
  findDefaultKey,
  findDefaultReceivingKey,
  findKeyAccounts,
  findLocalKey,
  findPixKeyOwner,
  findReceivingKey,
  insertPixKey,
  type KeyAccount,
  type ReceivingKey,
} from './keys.repository';
export { requireLinkedAccount } from './linked-account';
