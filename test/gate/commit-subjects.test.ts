// The commit-subject gate of `make test` (scripts/commit-subjects.ts) fires: in a temporary git
// repository, a subject over 72 characters planted after the cutoff fails the check and is
// named; subjects of at most 72 characters (counted in characters, not bytes) pass; commits
// before the cutoff are not judged; a clone without the cutoff is said to be unchecked.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runsOnlyIf } from '../support/skip';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts', 'commit-subjects.ts');
const hasGit = ['/usr/bin/git', '/bin/git', '/usr/local/bin/git'].some(existsSync);
const withGit = runsOnlyIf(hasGit, 'needs git');

const IDENTITY = {
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

const made: string[] = [];
let repo: string;

// Each test plants its history in a new repository.
function newRepo(): void {
  repo = mkdtempSync(join(tmpdir(), 'pixgate-subjects-'));
  made.push(repo);
  execFileSync('git', ['init', '-q', repo]);
}
test.after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function commit(subject: string): string {
  execFileSync('git', ['-C', repo, 'commit', '-q', '--allow-empty', '-m', subject, '-m', 'why'], {
    env: { ...process.env, ...IDENTITY },
  });
  return execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

function check(since: string): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, '--repo', repo, '--since', since], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

const LONG = 'area: a subject that goes on and on, well past the seventy-two characters';
// 72 characters, 73 bytes in UTF-8.
const EXACT = `${'a'.repeat(63)} Brasília`;

withGit('commits before the cutoff are not judged; short subjects after it pass', () => {
  newRepo();
  commit(LONG);
  const cutoff = commit('the cutoff');
  commit(EXACT);
  commit('short');
  assert.is([...EXACT].length, 72);
  assert.is(Buffer.byteLength(EXACT), 73);
  const run = check(cutoff);
  assert.is(run.code, 0, run.out);
  assert.match(run.out, /2 commits after \w{7}, none over 72/);
});

withGit('a subject over 72 characters after the cutoff fails the check and is named', () => {
  newRepo();
  const cutoff = commit('the cutoff');
  commit(EXACT);
  const planted = commit(LONG).slice(0, 7);
  commit('short');
  const run = check(cutoff);
  assert.is(run.code, 1, run.out);
  assert.match(run.out, /1 of 3 commits after \w{7} have a subject over 72 characters/);
  assert.ok(run.out.includes(`${planted} (${LONG.length}) ${LONG}`), run.out);
});

withGit('a clone without the cutoff commit is said to be unchecked', () => {
  newRepo();
  commit(LONG);
  const run = check('0123456789abcdef0123456789abcdef01234567');
  assert.is(run.code, 0, run.out);
  assert.match(run.out, /not checked: the cutoff commit .* is not in this clone/);
});

test.run();
