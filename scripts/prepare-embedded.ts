// Run by `make install`: saves a pristine embedded cluster and a migrated one, so that a new
// data folder starts in about a second instead of running initdb and every migration
// (see src/db/embedded-template.ts).
import { buildMigratedCluster } from '../src/db/migrate';
import { writeInitdbTemplate, writeMigratedTemplate } from '../src/db/embedded-template';

console.log(`embedded database template: ${await writeInitdbTemplate()}`);
const migrated = await writeMigratedTemplate(buildMigratedCluster);
console.log(`migrated embedded database template: ${migrated}`);
