// Run by `make install`: saves a pristine embedded cluster and a migrated one, so that a new
// data folder starts in about half a second instead of running initdb and every migration
// (see src/db/embedded-template.ts).
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { writeInitdbTemplate, writeMigratedTemplate } from '../src/db/embedded-template';

console.log(`embedded database template: ${await writeInitdbTemplate()}`);
const migrated = await writeMigratedTemplate(async (dataDir) => {
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db, database.schema);
  await database.close();
});
console.log(`migrated embedded database template: ${migrated}`);
