// make demo-credentials: new credentials of the demo company (a new MASTER application on its
// default account; the ones printed before keep working), on the database `make run` uses: the
// embedded one in PIXGATE_DATA_DIR (default ./data) or DATABASE_URL. The secret is stored
// hashed, as always, and shown only here. The embedded database is one process's at a time:
// while `make run` serves it, this says so and what to do instead.
import pino from 'pino';
import { loadConfig, maskPassword } from '../src/config';
import { DataDirInUseError } from '../src/db/data-dir-lock';
import { openDatabase } from '../src/db/database';
import { isNewDataDir } from '../src/db/embedded-template';
import { startupProblemOf } from '../src/db/errors';
import { migrateToLatest } from '../src/db/migrate';
import type { NewApplicationView } from '../src/identity/identity.service';
import { credentialLines } from '../src/sandbox/sandbox.service';
import { jobTable } from '../src/job-table';
import { buildServices } from '../src/services';

function fail(message: string): never {
  process.stderr.write(`pixgate: ${message}\n`);
  process.exit(2);
}

async function open(config: ReturnType<typeof loadConfig>) {
  const where = config.databaseUrl ? `DATABASE_URL=${maskPassword(config.databaseUrl)}` : config.dataDir;
  if (!config.databaseUrl && isNewDataDir(config.dataDir))
    fail(
      `no database in ${config.dataDir} yet: make run creates it, with the demo company, and prints its credentials`,
    );
  try {
    return await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DataDirInUseError)
      fail(
        `${error.message}, the running make run: stop it (Ctrl-C) and run make demo-credentials again, ` +
          `or make a company of your own while it runs: curl -X POST ${config.publicUrl}/api/v1/sandbox/companies ` +
          `-H 'content-type: application/json' -d '{"name":"Padaria Boa Vista"}'`,
      );
    const problem = config.databaseUrl ? startupProblemOf(error as NodeJS.ErrnoException) : undefined;
    if (problem) fail(`${problem} (${where})`);
    throw error;
  }
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail((error as Error).message);
}
const database = await open(config);
let application: NewApplicationView | undefined;
try {
  await migrateToLatest(database.db, database.schema);
  const log = pino({ level: 'silent' });
  const services = buildServices(config, database.db, database.changes, log);
  // Registered, not started: a committed event wakes the webhooks job (a no-op until started).
  services.jobs.registerAll(jobTable(services, { embedded: database.kind === 'embedded', log }));
  application = await services.sandbox.issueDemoCredentials();
} finally {
  await database.close();
}
if (!application) fail('this database has no demo company (make run makes it when it creates a database)');
process.stdout.write(
  `Demo company: new credentials (a new MASTER application; those printed before keep working).\n${credentialLines(application)}`,
);
