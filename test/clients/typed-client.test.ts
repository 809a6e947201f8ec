// Clients generated from our specs, as an integrator makes them: openapi-typescript with its
// default options turns the specs this server serves (/docs/specs/*.yaml) into types in a
// temporary folder; tsc type-checks examples/typed-client.ts (openapi-fetch) against them
// with strict settings; then the program runs against this server: a charge created and read,
// a Pix token, the cob, a sandbox payment, the Pix, a refund, and a cob with calendario {}.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onceOnEmbeddedRun } from '../support/skip';
import { startTestServer, type TestServer } from '../support/server';

const typeCheck = onceOnEmbeddedRun('no database');

const ROOT = resolve(import.meta.dirname, '../..');
let server: TestServer;
let dir: string;

test.before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'pixgate-client-'));
  mkdirSync(join(dir, 'types'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  copyFileSync(join(ROOT, 'examples/typed-client.ts'), join(dir, 'typed-client.ts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['typed-client.ts', 'types'],
    }),
  );
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

const tool = (name: string) => join(ROOT, 'node_modules/.bin', name);

test('types generated with default options from both served specs have relative servers', async () => {
  for (const name of ['platform', 'pix']) {
    const served = await server.client.get(`/docs/specs/${name}.yaml`);
    assert.is(served.status, 200);
    const ast = await openapiTS(new URL(`/docs/specs/${name}.yaml`, server.url));
    const source = astToString(ast);
    assert.not.match(source, /127\.0\.0\.1:8080/, 'no host baked into the types');
    writeFileSync(join(dir, 'types', `${name}.d.ts`), source);
  }
});

typeCheck('the example type-checks against them (defaults optional, always-returned fields required)', () => {
  const tsc = spawnSync(tool('tsc'), ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
  assert.is(tsc.status, 0, tsc.stdout + tsc.stderr);
});

typeCheck('a request missing a required field does not type-check (the check can fail)', () => {
  writeFileSync(
    join(dir, 'broken.ts'),
    `import createClient from 'openapi-fetch';
import type { paths } from './types/platform';
const platform = createClient<paths>({ baseUrl: 'http://localhost' });
await platform.POST('/api/v1/charge', { headers: { Authorization: 'x' }, body: { correlationID: 'a' } });
`,
  );
  const tsc = spawnSync(
    tool('tsc'),
    [
      '--noEmit',
      '--strict',
      '--module',
      'ESNext',
      '--moduleResolution',
      'Bundler',
      '--target',
      'ES2022',
      '--skipLibCheck',
      '--lib',
      'ES2023,DOM',
      '--types',
      'node',
      join(dir, 'broken.ts'),
    ],
    {
      encoding: 'utf8',
    },
  );
  assert.is.not(tsc.status, 0);
  assert.match(tsc.stdout, /Property 'value' is missing/);
});

// Asynchronously: the server answers from this very process, which spawnSync would block.
function runExample(): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', join(dir, 'typed-client.ts')],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, PIXGATE_URL: server.url, APP_ID: '', CLIENT_ID: '', CLIENT_SECRET: '' },
      },
      (_error, stdout, stderr) => ok({ status: child.exitCode, stdout, stderr }),
    );
  });
}

test('the example runs against the server: charge, cob, token, payment, Pix, refund', async () => {
  const run = await runExample();
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^charge pedido-\d+: ACTIVE, pay at http:\/\/localhost:\d+\/pay\//m);
  assert.match(run.stdout, /^cob \w+: ATIVA, R\$ 12\.34, expires in 86400 s$/m);
  assert.match(run.stdout, /^pix E\w{31}: R\$ 12\.34 for txid \w+$/m);
  assert.match(run.stdout, /^refund estorno\d+: R\$ 5\.00, (EM_PROCESSAMENTO|DEVOLVIDO)$/m);
  assert.match(run.stdout, /^cob \w+: ATIVA, expires in 86400 s$/m);
});

test.run();
