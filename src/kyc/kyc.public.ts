// What other areas may use of kyc: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/kyc/ is the area's own.
export { smtpConfigOf, type SmtpConfig } from './smtp-sender';
