// What a contract scenario gets and gives: the state an operation's example needs before it
// can be replayed. An operation without a scenario is replayed as its spec says: parameter
// examples, the request example, the caller's own credentials.
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/db/schema';
import type { TestCompany } from '../../support/fixtures';
import type { TestClient } from '../../support/server';

export interface ContractEnv {
  client: TestClient;
  company: TestCompany;
  // A Pix API bearer token of the company with every scope.
  bearer: string;
  // The server's database, for state no operation makes yet (rows other areas write).
  db?: Kysely<Database>;
  // Runs a background job now (services.jobs.runNow), for state only a job makes (the
  // installments of a subscription, the settlement of a recurring charge).
  runJob?: (name: string) => Promise<void>;
  // Writes the request log's buffer now (entries otherwise land within a fraction of a second).
  flushRequestLog?: () => Promise<void>;
}

export interface Prepared {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  // null: send no credentials.
  auth?: string | null;
}

export type Scenario = (env: ContractEnv, example: unknown) => Promise<Prepared>;
