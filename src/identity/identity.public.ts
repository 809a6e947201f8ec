// What other areas may use of identity: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/identity/ is the area's own.
export { newCredentials } from './credentials';
export { findCompany } from './identity.repository';
export { insertApplication } from './identity.repository';
