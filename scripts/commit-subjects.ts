// `make commit-subjects` (a step of `make test`): every commit made after CUTOFF has a subject
// of at most 72 characters, so `git log --oneline` and a review read one line per commit.
// History before CUTOFF is left as it is (dozens of older subjects are longer, and history is
// not rewritten): the cutoff is a commit every branch and every full clone of main contains,
// so the same commits are checked on a branch, on main after a merge, and in CI from a fresh
// clone, with no remote or merge-base to guess. Where the cutoff cannot be found (not a git
// checkout, a shallow clone that stops after it) the check says so and passes: it can only
// judge commits it can see.
// Usage: tsx scripts/commit-subjects.ts [--repo DIR] [--since REV]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

// The last commit landed before the rule (2026-11-26); every commit after it is checked.
const CUTOFF = 'f4f253159697382d7573b17d692ecb5732f3e306';
const MAX_SUBJECT = 72;

interface LongSubject {
  hash: string;
  subject: string;
}

function git(repo: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

// Why the commits cannot be checked here, or undefined when they can.
function cannotCheck(repo: string, since: string): string | undefined {
  if (git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD']) === undefined)
    return `${repo} is not a git checkout with commits`;
  if (git(repo, ['rev-parse', '--verify', '--quiet', `${since}^{commit}`]) === undefined)
    return `the cutoff commit ${since} is not in this clone (a shallow clone?)`;
  return undefined;
}

// Subjects as git log shows them (the first paragraph of the message, on one line), counted in
// characters, not bytes: "Brasília" is 8.
function longSubjects(repo: string, since: string): { checked: number; long: LongSubject[] } {
  const log = git(repo, ['log', '-z', '--format=%h %s', `${since}..HEAD`]) ?? '';
  const commits = log.split('\0').filter(Boolean);
  const long = commits
    .map((line) => ({ hash: line.slice(0, line.indexOf(' ')), subject: line.slice(line.indexOf(' ') + 1) }))
    .filter((c) => [...c.subject].length > MAX_SUBJECT);
  return { checked: commits.length, long };
}

function optionOf(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const repo = resolve(optionOf('--repo') ?? resolve(import.meta.dirname, '..'));
const since = optionOf('--since') ?? CUTOFF;
const why = cannotCheck(repo, since);
if (why) {
  process.stdout.write(`commit subjects: not checked: ${why}\n`);
  process.exit(0);
}
const { checked, long } = longSubjects(repo, since);
if (long.length === 0) {
  process.stdout.write(`commit subjects: ${checked} commits after ${since.slice(0, 7)}, none over ${MAX_SUBJECT}\n`);
  process.exit(0);
}
process.stderr.write(
  `commit subjects: ${long.length} of ${checked} commits after ${since.slice(0, 7)} have a subject over ` +
    `${MAX_SUBJECT} characters (reword them: git rebase -i, "reword"):\n` +
    long.map((c) => `  ${c.hash} (${[...c.subject].length}) ${c.subject}\n`).join(''),
);
process.exit(1);
