// `make load-charges` at a small scale: the script loads its charges through SQL with every
// column a charge needs, lists them through both APIs and prints the two tables. It is not
// part of the gate otherwise, and a migration adding a required column broke it once unseen.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = resolve(import.meta.dirname, '../..');

test('load-charges loads, lists and reports before and after the daily roll-up', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/load-charges.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOAD_CHARGES_SMALL: '2000', LOAD_CHARGES_LARGE: '5000' },
    timeout: 240_000,
  });
  assert.match(stdout, /loaded 2000 charges/);
  assert.match(stdout, /loaded 5000 charges/);
  for (const when of ['before the daily roll-up', 'after the daily roll-up']) assert.match(stdout, new RegExp(when));
  assert.match(stdout, /pix 90% deep\s+[\d.]+\s+[\d.]+\s+[\d.]+x/);
});

test.run();
