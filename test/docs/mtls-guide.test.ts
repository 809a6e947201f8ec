// docs/mtls.md runs as written: its ```sh blocks, joined unchanged into one bash script, run
// against a test server with TLS on and mTLS required (PIXGATE_URL, PIXGATE_TLS_URL) with the
// machine's curl, jq, openssl and node. Every step must succeed, and what the guide says each
// step shows must be in the output.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';

const ROOT = resolve(import.meta.dirname, '../..');
const found = (tool: string) => ['/usr/bin', '/bin', '/usr/local/bin'].some((d) => existsSync(join(d, tool)));
const withTools = runsOnlyIf(
  ['curl', 'jq', 'openssl'].every(found),
  "needs curl, jq and openssl (make test's test-tools step installs them as root)",
);

export function guideBlocks(text: string): string[] {
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

let server: TestServer;
let dir: string;

test.before(async () => {
  server = await startTestServer({ PIXGATE_TLS: 'on', PIXGATE_TLS_PORT: String(await freePort()), PIXGATE_MTLS: 'required' });
  dir = mkdtempSync(join(tmpdir(), 'pixgate-mtls-guide-'));
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((ok) => {
    const child = execFile(
      'bash',
      [script],
      { cwd: dir, env: { ...process.env, ...env }, timeout: 180_000 },
      (_e, o, e) => ok({ code: child.exitCode, out: `${o}${e}` }),
    );
  });
}

withTools('docs/mtls.md runs unchanged: a bound token, a cob, a receiver that checks pixgate', async () => {
  const blocks = guideBlocks(readFileSync(join(ROOT, 'docs', 'mtls.md'), 'utf8'));
  assert.ok(blocks.length >= 10, `${blocks.length} blocks`);
  writeFileSync(join(dir, 'guide.sh'), `set -euo pipefail\n${blocks.join('\n')}`);
  const run = await bash(join(dir, 'guide.sh'), {
    PIXGATE_URL: server.url,
    PIXGATE_TLS_URL: server.tlsUrl!,
    RECEIVER_PORT: String(await freePort()),
  });
  const out = run.out;
  assert.is(run.code, 0, out);
  const thumbprint = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')).certificate.thumbprint;
  assert.match(out, /subject=CN = pixgate sandbox CA, O = pixgate/);
  assert.match(out, new RegExp(`ACTIVE ${thumbprint} CN=Padaria Boa Vista:`));
  assert.match(out, new RegExp(`\\{ 'x5t#S256': '${thumbprint}' \\}`));
  assert.match(out, /Client certificate refused: no client certificate was presented/);
  assert.match(out, /\nATIVA\n401\n/);
  assert.match(out, /refused without a client certificate/);
  assert.match(out, /Acceptable client certificate CA names\n.*pixgate sandbox CA/);
  assert.match(out, /\n403\n/);
  assert.match(out, /CN=Receiver CA\n20[01]\n/);
});

test('the extraction finds the blocks of a text (the runner cannot pass on nothing)', () => {
  assert.equal(guideBlocks('a\n```sh\necho a\n```\n```js\nno\n```\n```sh\necho b\n```\n'), ['echo a\n', 'echo b\n']);
});

test.run();
