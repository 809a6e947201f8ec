// The documents stay true to the code and to each other: every relative link of the README and
// docs/ reaches a file and, with an anchor, a heading of it; every environment variable the
// server reads is in the README's configuration table; every background job of the job table
// (src/job-table.ts) is in the table of docs/ARCHITECTURE.md with its interval.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return filesUnder(path, suffix);
    return name.endsWith(suffix) ? [path] : [];
  });
}

const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

// GitHub's anchors: lower case, punctuation dropped, each space a hyphen, repeats numbered.
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = text!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

test('anchors follow GitHub: punctuation and code marks dropped, spaces as hyphens', () => {
  const anchors = anchorsOf("# A\n## The payer's page\n## `make bench`\n### Get paid, end to end (sandbox)\n## A\n");
  assert.equal([...anchors], ['a', 'the-payers-page', 'make-bench', 'get-paid-end-to-end-sandbox', 'a-1']);
});

test('every relative link of the README and docs/ reaches a file and its heading', () => {
  const documents = ['README.md', ...filesUnder('docs', '.md')];
  const broken: string[] = [];
  let links = 0;
  for (const document of documents) {
    for (const [, target] of withoutCode(read(document)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      links++;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path ? relative(ROOT, resolve(ROOT, dirname(document), path)) : document;
      if (!existsSync(join(ROOT, file))) broken.push(`${document}: ${target} (no file ${file})`);
      else if (anchor && !anchorsOf(read(file)).has(anchor)) broken.push(`${document}: ${target} (no heading)`);
    }
  }
  assert.ok(links > 30, `${links} links found`);
  assert.equal(broken, []);
});

// The names src/ reads from the environment: env.NAME, env['NAME'], and names handed to a
// helper with the environment (milliseconds(env, 'NAME', ...)).
function environmentVariables(): Set<string> {
  const names = new Set<string>();
  for (const file of filesUnder('src', '.ts')) {
    const text = read(file);
    for (const [, name] of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(name!);
    for (const [, name] of text.matchAll(/\benv\[\s*'([A-Z][A-Z0-9_]+)'\s*\]/g)) names.add(name!);
    for (const [, args] of text.matchAll(/\(env,([^)]*)\)/g))
      for (const [, name] of args!.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) names.add(name!);
  }
  return names;
}

test("every environment variable the server reads is in the README's configuration table", () => {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Configuration\n');
  const table = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const names = environmentVariables();
  assert.ok(names.size >= 35, [...names].join(' '));
  const missing = [...names].filter((name) => !table.includes(`\`${name}\``));
  assert.equal(missing, []);
});

// A constant's value wherever src/ defines it (`const NAME = ...;`).
function constantOf(sources: string[], name: string): string | undefined {
  for (const text of sources) {
    const found = new RegExp(`\\bconst ${name}\\s*=\\s*([^;]+);`).exec(text);
    if (found) return found[1]!.trim();
  }
  return undefined;
}

function valueOf(sources: string[], expression: string): string {
  const literal = /^'([^']*)'$/.exec(expression);
  if (literal) return literal[1]!;
  if (/^[\d_ *]+$/.test(expression))
    return String(expression.split('*').reduce((n, factor) => n * Number(factor.trim().replace(/_/g, '')), 1));
  const defined = constantOf(sources, expression);
  assert.ok(defined, `no constant ${expression} in src/`);
  return valueOf(sources, defined!);
}

function intervalText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 600_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

test('every background job of the job table (src/job-table.ts) is in ARCHITECTURE.md with its interval', () => {
  const sources = filesUnder('src', '.ts').map(read);
  // The table is the one place jobs are registered from: no module registers one of its own.
  const elsewhere = filesUnder('src', '.ts').filter((file) => /\bjobs\.register\(/.test(read(file)));
  assert.equal(elsewhere, []);
  const table = read('src/job-table.ts');
  const registered = [...table.matchAll(/\bname: ([^,]+?),\s*intervalMs: ([^,]+?),/g)].map(([, name, interval]) => ({
    name: valueOf(sources, name!.trim()),
    interval: intervalText(Number(valueOf(sources, interval!.trim()))),
  }));
  assert.ok(registered.length >= 14, JSON.stringify(registered));
  const architecture = read('docs/ARCHITECTURE.md');
  const start = architecture.indexOf('\n## Background jobs\n');
  assert.ok(start >= 0, 'ARCHITECTURE.md has a section "## Background jobs"');
  const section = architecture.slice(start, architecture.indexOf('\n## ', start + 1));
  const rows = new Map(
    [...section.matchAll(/^\| `([a-z.-]+)` \| ([^|]+) \|/gm)].map(([, name, interval]) => [name!, interval!.trim()]),
  );
  const wrong = registered
    .filter((job) => !rows.get(job.name)?.startsWith(job.interval))
    .map((job) => `${job.name} every ${job.interval} (the table says: ${rows.get(job.name) ?? 'nothing'})`);
  assert.equal(wrong, []);
  // (and no job the code no longer has)
  assert.is(rows.size, registered.length, `jobs in the table: ${[...rows.keys()].join(', ')}`);
});

test.run();
