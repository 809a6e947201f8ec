// The border rules of eslint.borders.js fire: planted imports that cross an area's border or
// go up a layer are refused, and the same imports through the public surface pass. The files
// are linted as text at paths inside src/ (nothing is written), with the border rule alone.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
// @ts-expect-error: plain JavaScript config module without declarations
import { areasOf, borderZones } from '../../eslint.borders.js';

const ROOT = resolve(import.meta.dirname, '../..');

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { 'import-x': importX },
      settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
      rules: { 'import-x/no-restricted-paths': ['error', { zones: borderZones(ROOT) }] },
    },
  ],
});

async function crossings(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: resolve(ROOT, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const refused = async (file: string, source: string) => {
  const found = await crossings(file, source);
  assert.is(found.length, 1, `${file}: ${source} -> ${found.join('; ') || 'nothing reported'}`);
  assert.match(found[0]!, /no-restricted-paths/);
};
const accepted = async (file: string, source: string) =>
  assert.equal(await crossings(file, source), [], `${file}: ${source}`);

test('an area reaches another only through its module, services, types and public list', async () => {
  await refused('src/customers/planted.ts', "import { findAccountsOfCompany } from '../accounts/accounts.repository';");
  await refused('src/customers/planted.ts', "import { keyHandlers } from '../keys/keys.handler';");
  await refused('src/charges/standard/planted.ts', "import { x } from '../../pixin/pixin.view';");
  await accepted('src/customers/planted.ts', "import { LedgerService } from '../ledger/ledger.service';");
  await accepted('src/customers/planted.ts', "import { buildKycServices } from '../kyc/kyc.module';");
  await accepted('src/charges/standard/planted.ts', "import { x } from '../charges.module';");
  await accepted('src/customers/planted.ts', "import { findAccountParty } from '../accounts/accounts.public';");
});

test('no crossing is let through: ESLint has no bulk suppressions file', () => {
  // ESLint reads eslint-suppressions.json on its own; one entry there would let a crossing pass.
  assert.not.ok(existsSync(resolve(ROOT, 'eslint-suppressions.json')), 'eslint-suppressions.json exists');
});

test('no layer imports a higher one', async () => {
  await refused('src/lib/planted.ts', "import type { Database } from '../db/schema';");
  await refused('src/lib/planted.ts', "import { LedgerService } from '../ledger/ledger.service';");
  await refused('src/db/planted.ts', "import { buildChargesServices } from '../charges/charges.module';");
  await refused('src/db/planted.ts', "import { buildApp } from '../http/app';");
  await refused('src/customers/planted.ts', "import { buildApp } from '../http/app';");
  await refused('src/customers/planted.ts', "import { buildServices } from '../services';");
  await accepted('src/customers/planted.ts', "import { callerOf } from '../http/principal-guard';");
  await accepted('src/customers/planted.ts', "import type { Config } from '../config';");
  await accepted('src/db/planted.ts', "import { toCents } from '../lib/money';");
});

test('the HTTP layer mounts handlers but reads no repository', async () => {
  await accepted('src/http/planted.ts', "import { customerHandlers } from '../customers/customers.handler';");
  await refused('src/http/planted.ts', "import { x } from '../customers/customers.repository';");
});

test('a new area folder is inside the borders from its first file', async () => {
  const areas: string[] = areasOf(ROOT);
  assert.ok(areas.includes('charges') && areas.includes('webhooks'), areas.join(', '));
  assert.not.ok(areas.includes('lib') || areas.includes('db') || areas.includes('http'));
});

test.run();
