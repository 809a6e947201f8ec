// Run by `make install`: saves a pristine embedded cluster so that a new data folder
// starts in under a second instead of running initdb (see src/db/embedded-template.ts).
import { writeInitdbTemplate } from '../src/db/embedded-template';

console.log(`embedded database template: ${await writeInitdbTemplate()}`);
