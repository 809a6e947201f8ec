// The services of the transfers area: transfers between a company's accounts and statements.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { StatementService } from './statement.service';
import { TransfersService } from './transfers.service';

export interface TransfersServices {
  transfers: TransfersService;
  statement: StatementService;
}

export interface TransfersDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildTransfersServices({ db, clock }: TransfersDependencies): TransfersServices {
  return { transfers: new TransfersService(db, clock), statement: new StatementService(db) };
}
