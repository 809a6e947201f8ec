// Each area folder of src/ has exactly one module (src/<area>/<area>.module.ts), what builds it,
// and the composition root (src/services.ts) only calls modules: it constructs no service itself.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: plain JavaScript config module without declarations
import { areasOf } from '../../eslint.borders.js';

const ROOT = resolve(import.meta.dirname, '../..');

// Folders that hold nothing to build (docs/ARCHITECTURE.md, "Areas and layers"): the ledger and
// splits are libraries of functions other areas call inside their transaction, and cli is the
// `pixgate` command, a separate program.
const LIBRARIES = ['cli', 'ledger', 'splits'];

function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return modulesUnder(join(dir, entry.name));
    return entry.name.endsWith('.module.ts') ? [entry.name] : [];
  });
}

test('every area folder has exactly one module, named after it; library folders have none', () => {
  const wrong: string[] = [];
  for (const area of areasOf(ROOT) as string[]) {
    const modules = modulesUnder(join(ROOT, 'src', area));
    const expected = LIBRARIES.includes(area) ? [] : [`${area}.module.ts`];
    if (JSON.stringify(modules) !== JSON.stringify(expected)) wrong.push(`${area}: ${modules.join(', ') || 'none'}`);
  }
  assert.equal(wrong, []);
});

test('src/services.ts constructs no service: it only calls the modules', () => {
  const text = readFileSync(join(ROOT, 'src/services.ts'), 'utf8');
  // The process's own objects, not an area's: the scheduler (src/jobs) and the set of known scopes.
  const constructed = [...text.matchAll(/\bnew\s+(\w+)/g)].map(([, name]) => name);
  assert.equal(
    constructed.filter((name) => !['Scheduler', 'Set'].includes(name!)),
    [],
  );
});

test.run();
