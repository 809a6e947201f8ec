// The sandbox failure table as other areas show it (the dashboard's sandbox page): which Pix
// key or account number makes a payment out fail, and how.
import { FAILURE_TABLE } from './outside-world';

export function sandboxFailureTable() {
  return FAILURE_TABLE;
}
