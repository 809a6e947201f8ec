// The specs keep the two rules that make generated clients usable (scripts/spec-rules.ts):
// no `default` on request properties (generators would make them required), and the fields
// the server always returns listed as required in the response schemas.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onceOnEmbeddedRun } from '../support/skip';

const noDatabase = onceOnEmbeddedRun('no database');

const ROOT = resolve(import.meta.dirname, '../..');

noDatabase('specs/*.yaml follow the client rules (scripts/spec-rules.ts --check)', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/spec-rules.ts', '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.is(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /specs follow the client rules/);
});

test.run();
