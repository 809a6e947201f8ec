// Fuzzing every operation of both specs against a fresh server (a new embedded database, or
// with DATABASE_URL a new schema of that Postgres, dropped afterwards), through HTTP only, as
// a client would. Two passes:
//   1. leaves: each leaf of each request-body example replaced, one at a time, by boundary
//      values (nulls, huge and fractional numbers, empty, huge and NUL strings, bad dates);
//   2. random: per operation, ROUNDS requests with path and query values, bodies mutated from
//      the examples, malformed JSON, wrong content types and missing credentials.
// Fails (exit 1) on any 5xx other than 503, and on any 4xx that is not in the called
// API's error format. Usage: make fuzz [FUZZ_ROUNDS=20] [FUZZ_SEED=1]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { dropSchema } from '../src/db/database';
import { startServer } from '../src/server';
import { type Json, loadDereferencedSpec, operationsOf, SPEC_NAMES } from '../test/support/spec';

const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 20);
let seed = Number(process.env.FUZZ_SEED ?? 1);
// A small LCG: the same seed replays the same requests.
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const BOUNDARY: readonly unknown[] = [
  null,
  true,
  -1,
  0,
  0.5,
  2_147_483_647,
  2_147_483_648,
  999_999_999_999,
  2 ** 53,
  2 ** 63,
  1e300,
  '',
  ' ',
  'x'.repeat(100_001),
  '\u0000',
  '9'.repeat(30),
  '2026-02-30',
  '9999-12-31',
  '0001-01-01T00:00:00Z',
  '-1.00',
  '0.00',
  '99999999999.99',
  'ção😀',
  '%zz',
  [],
  {},
  [[[[]]]],
];
const PATH_VALUES: readonly string[] = [
  '',
  ' ',
  'a'.repeat(5000),
  '%',
  '..',
  '\u0000',
  'ção😀',
  "' or 1=1 --",
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '2026-13-45',
];
const RAW_BODIES: readonly string[] = ['{', '{"a":', 'null', '[]', '"x"', '1', '\u0000', '{"a":1}{"b":2}'];

const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-fuzz-'));
const url = process.env.DATABASE_URL;
const schema = `fuzz_${randomBytes(6).toString('hex')}`;
const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', PIXGATE_DATA_DIR: dataDir });
const server = await startServer({
  config,
  logger: pino({ level: 'silent' }),
  database: url ? { url, schema } : { dataDir },
});
const BASE = server.url;

async function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(BASE + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return res.json();
}
const company = await postJson('/api/v1/sandbox/companies', {
  name: 'Fuzz Co',
  features: ['BAAS', 'BANK_ACCOUNT', 'MED_API', 'SUBACCOUNT', 'SPLIT', 'PARTNER'],
});
const appID: string = company.application.appID;
const basic = Buffer.from(`${company.application.clientId}:${company.application.clientSecret}`).toString('base64');
const token = await fetch(`${BASE}/oauth/token`, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
}).then((r) => r.json() as Promise<Json>);
const bearer: string = token.access_token;
await postJson('/api/v1/sandbox/pix-in', {
  pixKey: company.pixKey.key,
  value: 100_000_000,
  payer: { name: 'Fuzz Payer', taxID: '12345678909' },
});

const problems: string[] = [];
let sent = 0;

function apiOf(path: string): 'pix' | 'platform' | 'other' {
  if (path.startsWith('/pix/v2')) return 'pix';
  if (path.startsWith('/api/v1')) return 'platform';
  return 'other';
}

async function send(
  method: string,
  path: string,
  init: { query?: URLSearchParams; headers: Record<string, string>; body?: string },
  what: string,
): Promise<void> {
  sent++;
  const url = BASE + path + (init.query?.toString() ? `?${init.query}` : '');
  const res = await fetch(url, {
    method: method.toUpperCase(),
    headers: init.headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    redirect: 'manual',
  });
  const type = res.headers.get('content-type') ?? '';
  // An event stream that opened lasts until maxSeconds: its opening is the answer.
  if (type.startsWith('text/event-stream')) return void (await res.body?.cancel());
  const text = await res.text();
  const api = apiOf(path);
  let wrong = '';
  if (res.status >= 500 && res.status !== 503) wrong = 'server error';
  else if (res.status >= 400 && api === 'pix') {
    const body = type.includes('application/problem+json') ? (JSON.parse(text) as Json) : undefined;
    if (!body || typeof body.type !== 'string' || typeof body.title !== 'string' || body.status !== res.status)
      wrong = 'not a problem+json';
  } else if (res.status >= 400 && api === 'platform') {
    const body = type.includes('application/json') ? (JSON.parse(text) as Json) : undefined;
    if (!body || body.error === undefined) wrong = 'not {error}';
  }
  if (wrong)
    problems.push(
      `${wrong}: ${res.status} ${method.toUpperCase()} ${url.slice(0, 160)} (${what}) -> ${text.slice(0, 200)}`,
    );
}

function examplesOf(media: Json): Json[] {
  if (!media) return [];
  if (media.examples) return Object.values(media.examples as Record<string, { value: Json }>).map((e) => e.value);
  return media.example !== undefined ? [media.example] : [];
}

function leavesOf(value: Json, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [path];
  const out = Array.isArray(value) ? [] : [path];
  for (const [k, v] of Object.entries(value)) out.push(...leavesOf(v, [...path, k]));
  return out;
}

function withLeaf(value: Json, path: string[], leaf: unknown): Json {
  if (path.length === 0) return leaf;
  const copy = structuredClone(value);
  let cursor = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key];
  cursor[path.at(-1)!] = leaf;
  return copy;
}

function mutate(value: Json, depth = 0): Json {
  if (value === null || typeof value !== 'object' || depth > 4) return pick(BOUNDARY);
  const copy = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  const r = rand();
  if (keys.length && r < 0.3) delete copy[pick(keys)];
  else if (keys.length && r < 0.8) {
    const key = pick(keys);
    copy[key] = mutate(copy[key], depth + 1);
  } else if (r < 0.9) copy[pick(['zzz', '__proto__', 'constructor', 'value', 'valor'])] = pick(BOUNDARY);
  else return pick(BOUNDARY);
  return copy;
}

// A txid the standard accepts, new each time (a PUT creates).
const freshTxid = () =>
  `fz${Math.floor(rand() * 1e12)
    .toString(36)
    .padEnd(8, '0')}abcdefghijklmnopqrstu`;

function fillPath(path: string, params: Json[], weird: boolean): string {
  let out = path;
  for (const p of params.filter((x) => x.in === 'path')) {
    const example = p.name === 'txid' ? freshTxid() : String(p.example ?? examplesOf(p)[0] ?? 'abc');
    out = out.replace(`{${p.name}}`, encodeURIComponent(weird && rand() < 0.5 ? pick(PATH_VALUES) : example));
  }
  return out;
}

interface Target {
  method: string;
  path: string;
  params: Json[];
  auth: Record<string, string>;
  examples: Json[];
}

// 1. Every leaf of the operation's examples set to each boundary value in turn.
async function fuzzLeaves({ method, path, params, auth, examples }: Target): Promise<void> {
  for (const example of examples.slice(0, 3)) {
    for (const leaf of leavesOf(example)) {
      for (const value of BOUNDARY) {
        const body = JSON.stringify(withLeaf(example, leaf, value));
        await send(
          method,
          fillPath(path, params, false),
          { headers: { ...auth, 'content-type': 'application/json' }, body },
          `${leaf.join('.') || 'body'} = ${JSON.stringify(value)?.slice(0, 30)}`,
        );
      }
    }
  }
}

// A body for a random request: mostly a mutated example, sometimes raw junk or another media type.
function randomBody(examples: Json[], headers: Record<string, string>): string {
  const r = rand();
  headers['content-type'] = 'application/json';
  if (r < 0.1) return pick(RAW_BODIES);
  if (r < 0.15) {
    headers['content-type'] = pick([
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]);
    return 'a=1&b=2';
  }
  return JSON.stringify(examples.length ? mutate(structuredClone(pick(examples))) : mutate({}));
}

// 2. Random requests: odd query parameters, mutated bodies, sometimes no credentials.
async function fuzzRandom({ method, path, params, auth, examples }: Target): Promise<void> {
  for (let i = 0; i < ROUNDS; i++) {
    const query = new URLSearchParams();
    for (const p of params.filter((x) => x.in === 'query')) {
      if (rand() < 0.5) query.append(p.name, rand() < 0.5 ? String(p.example ?? 'x') : pick(PATH_VALUES));
    }
    if (rand() < 0.1) query.append('unknownParam', 'x');
    const headers: Record<string, string> = { ...auth };
    const body = method !== 'get' && method !== 'delete' ? randomBody(examples, headers) : undefined;
    if (rand() < 0.05) delete headers.authorization;
    await send(
      method,
      fillPath(path, params, true),
      { query, headers, ...(body !== undefined ? { body } : {}) },
      `random #${i}`,
    );
  }
}

for (const name of SPEC_NAMES) {
  for (const { method, path, op, pathItem: item } of operationsOf(await loadDereferencedSpec(name))) {
    const params: Json[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
    const auth = apiOf(path) === 'pix' ? { authorization: `Bearer ${bearer}` } : { authorization: appID };
    const target = { method, path, params, auth, examples: examplesOf(op.requestBody?.content?.['application/json']) };
    await fuzzLeaves(target);
    await fuzzRandom(target);
  }
}

await server.close();
if (url) await dropSchema(url, schema);
rmSync(dataDir, { recursive: true, force: true });
console.log(`${sent} requests, ${problems.length} problems`);
for (const p of problems.slice(0, 50)) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
