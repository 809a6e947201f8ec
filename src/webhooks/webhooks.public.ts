// What other areas may use of webhooks: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/webhooks/ is the area's own.
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, parseTimeoutMs } from './retry';
