// The guides of docs/ run as written: each guide's ```sh blocks are joined, unchanged and in
// order, into one bash script per guide and run against a test server (PIXGATE_URL) with the
// machine's curl and jq; its ```js blocks that name a file in their first line
// (`// verify-payload.mjs ...`) are written to that file first, for the shell to run. A curl
// shim records every answer's status: all must be 2xx, except in a block marked
// ```sh expect-4xx, whose answers must all be 4xx (an error shown on purpose); every curl of
// the text must have run.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const tools = ['curl', 'jq'].map((t) => ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => join(d, t)).find(existsSync));
const withTools = runsOnlyIf(
  tools.every(Boolean),
  "needs curl and jq (make test's test-tools step runs apt-get install -y jq as root)",
);

export interface GuideBlock {
  shell: string;
  expect4xx: boolean;
}

// A guide's shell blocks, in order, and the files its named js blocks hold.
export function guideParts(markdown: string): { blocks: GuideBlock[]; files: Map<string, string> } {
  const blocks: GuideBlock[] = [];
  const files = new Map<string, string>();
  for (const [, lang, info, body] of markdown.matchAll(/^```(sh|js)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (lang === 'sh') blocks.push({ shell: body!, expect4xx: info!.trim().split(/\s+/).includes('expect-4xx') });
    const file = /^\/\/ ([\w.-]+\.mjs)\b/.exec(body!)?.[1];
    if (lang === 'js' && file) files.set(file, body!);
  }
  return { blocks, files };
}

// The guides: the lower-case files (ARCHITECTURE.md, HACKING.md, ... are engineering notes,
// whose commands are not meant to run here).
// Guides whose shell blocks another test runs, against a server this one does not start.
const RUN_ELSEWHERE: Record<string, string> = {
  'mtls.md': 'test/docs/mtls-guide.test.ts runs it against a server with TLS on',
};

const guides = readdirSync(DOCS)
  .filter((f) => /^[a-z0-9-]+\.md$/.test(f) && !RUN_ELSEWHERE[f])
  .map((f) => ({ name: f, ...guideParts(readFileSync(join(DOCS, f), 'utf8')) }))
  .filter((g) => g.blocks.length > 0);

let server: TestServer;
let base: string;

test.before(async () => {
  server = await startTestServer();
  // Under the project folder: the guides' scripts import its packages (jose).
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  base = mkdtempSync(join(ROOT, '.tmp', 'guides-'));
});
test.after(async () => {
  rmSync(base, { recursive: true, force: true });
  await server.close();
});

// Asynchronously: the server answers from this very process.
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((ok) => {
    const child = execFile('bash', [script], { cwd, env: { ...process.env, ...env }, timeout: 180_000 }, (_e, o, e) =>
      ok({ code: child.exitCode, out: `${o}${e}` }),
    );
  });
}

// curl as written, plus a line "<status> <block> <url>" per call in curl.log
function curlShim(dir: string, log: string): void {
  writeFileSync(
    join(dir, 'curl'),
    `#!/usr/bin/env bash
headers=$(mktemp)
${tools[0]} -D "$headers" "$@"; rc=$?
status=$(grep -E '^HTTP/' "$headers" | tail -n 1 | cut -d' ' -f2)
url=$(printf '%s\\n' "$@" | grep -E '^(https?://|\\$)' | head -n 1)
echo "\${status:-none} \${GUIDE_BLOCK:-?} \${url}" >> "${log}"
rm -f "$headers"
exit $rc
`,
  );
  chmodSync(join(dir, 'curl'), 0o755);
}

// What a guide's run must have printed, beyond its answers being 2xx: where it ends up.
const OUTCOMES: Record<string, RegExp> = {
  'charges.md': /\nATIVA\nmensalidade2026abril000000001 ATIVA 450\.00\n/,
  'kyc-partners.md': /\nVERIFIED\nSUBMITTED\nAPPROVED\n/,
  'pix-in.md': /"status":"CONFIRMED"/,
  'receipts-directory.md': /"ispb": "18236120"/,
  'recurrences.md': /\nCONCLUIDA\n11990\n/,
};

for (const guide of guides) {
  withTools(`docs/${guide.name} runs as written (${guide.blocks.length} shell blocks)`, async () => {
    const dir = join(base, guide.name.replace(/\.md$/, ''));
    mkdirSync(dir);
    const log = join(dir, 'curl.log');
    writeFileSync(log, '');
    curlShim(dir, log);
    for (const [file, body] of guide.files) writeFileSync(join(dir, file), body);
    const script = guide.blocks.map((b, i) => `export GUIDE_BLOCK=${i}\n${b.shell}`).join('\n');
    writeFileSync(join(dir, 'guide.sh'), `set -euo pipefail\n${script}`);
    const run = await bash(join(dir, 'guide.sh'), dir, { PIXGATE_URL: server.url, PATH: `${dir}:${process.env.PATH}` });
    const calls = readFileSync(log, 'utf8').trim().split('\n').filter(Boolean);
    assert.is(run.code, 0, `${run.out}\n${calls.join('\n')}`);
    const written =
      guide.blocks
        .map((b) => b.shell)
        .join('\n')
        .match(/\bcurl -/g)?.length ?? 0;
    // (a curl in a loop runs more than once)
    assert.ok(
      calls.length >= written,
      `every curl of the text ran (${calls.length} of ${written}):\n${calls.join('\n')}`,
    );
    const outcome = OUTCOMES[guide.name];
    assert.ok(outcome, `docs/${guide.name}: name what its run must print in OUTCOMES`);
    assert.match(run.out, outcome!, run.out);
    for (const call of calls) {
      const [status, block] = call.split(' ');
      const expected = guide.blocks[Number(block)]?.expect4xx ? /^4\d\d$/ : /^2\d\d$/;
      assert.match(status!, expected, `an unexpected answer: ${call}\n${run.out}`);
    }
  });
}

test('the guides have shell blocks to run, and the extraction reads markers and named files', () => {
  assert.ok(guides.length >= 4, guides.map((g) => g.name).join(' '));
  const parts = guideParts(
    'x\n```sh\necho a\n```\n```sh expect-4xx\ncurl -s x\n```\n```js\n// run.mjs: node run.mjs\nconsole.log(1)\n```\n```js\nnot named\n```\n',
  );
  assert.equal(parts.blocks, [
    { shell: 'echo a\n', expect4xx: false },
    { shell: 'curl -s x\n', expect4xx: true },
  ]);
  assert.equal([...parts.files.keys()], ['run.mjs']);
});

test.run();
