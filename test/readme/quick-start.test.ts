// The README's quick start runs as written: every ```sh block from "## First calls" up to the
// typed clients (which test/clients/typed-client.test.ts runs) is joined, unchanged, into one
// bash script and run against a test server (PIXGATE_URL) with the machine's curl and jq.
// A curl shim records every answer's status: all must be 2xx, every curl of the text must
// have run, and the walkthrough must end with the charge paid and refunded.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';

const ROOT = resolve(import.meta.dirname, '../..');
const tools = ['curl', 'jq'].map((t) => ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => join(d, t)).find(existsSync));
const withTools = runsOnlyIf(
  tools.every(Boolean),
  "needs curl and jq (make test's test-tools step runs apt-get install -y jq as root)",
);

// The quick start's shell blocks, in order.
export function quickStartBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## First calls\n');
  const end = readme.indexOf('\n### Typed clients', start);
  assert.ok(start >= 0 && end > start, 'README sections "## First calls" and "### Typed clients"');
  return [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

let server: TestServer;
let dir: string;

test.before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'pixgate-readme-'));
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

// Asynchronously: the server answers from this very process.
function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((ok) => {
    const child = execFile(
      'bash',
      [script],
      { cwd: dir, env: { ...process.env, ...env }, timeout: 120_000 },
      (_e, o, e) => ok({ code: child.exitCode, out: `${o}${e}` }),
    );
  });
}

withTools("the README's quick start runs unchanged: one company from credentials to a refund", async () => {
  const blocks = quickStartBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  assert.ok(blocks.length >= 4, `${blocks.length} blocks`);
  const log = join(dir, 'curl.log');
  // curl as written, plus a line "<status> <url>" per call in curl.log
  writeFileSync(
    join(dir, 'curl'),
    `#!/usr/bin/env bash
headers=$(mktemp)
${tools[0]} -D "$headers" "$@"; rc=$?
status=$(grep -E '^HTTP/' "$headers" | tail -n 1 | cut -d' ' -f2)
url=$(printf '%s\\n' "$@" | grep -E '^(https?://|\\$)' | head -n 1)
echo "\${status:-none} \${url}" >> "${log}"
rm -f "$headers"
exit $rc
`,
  );
  chmodSync(join(dir, 'curl'), 0o755);
  writeFileSync(join(dir, 'quick-start.sh'), `set -euo pipefail\n${blocks.join('\n')}`);
  const run = await bash(join(dir, 'quick-start.sh'), {
    PIXGATE_URL: server.url,
    PATH: `${dir}:${process.env.PATH}`,
  });
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  assert.is(run.code, 0, `${run.out}\n${calls.join('\n')}`);
  const written = blocks.join('\n').match(/\bcurl -/g)!.length;
  assert.is(calls.length, written, `every curl of the text ran:\n${calls.join('\n')}`);
  for (const call of calls) assert.match(call, /^2\d\d /, `a non-2xx answer: ${call}\n${run.out}`);
  // what the walkthrough printed, in order: ... ATIVA, then COMPLETED, CONCLUIDA, 12.34, ..., the refund
  assert.match(run.out, /ATIVA\nCOMPLETED\nCONCLUIDA\n12\.34\n/);
  assert.match(run.out, /\n(IN_PROCESSING|CONFIRMED)\n?$/);
});

test('the extraction finds the blocks the README has (the runner cannot pass on nothing)', () => {
  const blocks = quickStartBlocks(
    'x\n## First calls\n```sh\necho a\n```\ntext\n```sh\necho b\n```\n### Typed clients\n```sh\nno\n```',
  );
  assert.equal(blocks, ['echo a\n', 'echo b\n']);
});

test.run();
