// The standard's own examples against our server: every request example of the Central
// Bank's official OpenAPI file (v2.8.2, test/contract/official/) is replayed against a
// running server, and every answer is validated against the OFFICIAL response schema of its
// status (JSON bodies, and the payload of the JWS served at the payload locations).
//
// What is adapted before replaying, as a user of another PSP would have to: the examples'
// keys, locations, txids and recurrences belong to no company here, so the contract
// scenarios (test/contract/scenarios) swap in the company's own (key, fresh loc ids, fresh
// txids, a recurrence of its own) and move the examples' dates past today keeping their
// distances. Examples that break the official schema the way a tolerant PSP accepts (integers
// written as strings, a CEP with a hyphen) are sent as written: the server normalises them.
// CPFs whose check digits are wrong (pixgate refuses them, as every CPF: test/recurrences)
// are replaced by valid ones. Every such change is printed. Everything else is sent as the
// standard wrote it.
//
// The official response schemas require some properties their own examples never carry (a
// top-level logradouro on cobv, retentativa on rec, ...): an error is blamed on the official
// file, and printed as tolerated, when one of the file's own response examples fails its
// schema the same way (same place, same rule), except the properties of MUST_FILL.
//
// What is corrected in the official file before validating (its known defects, see
// ../shared/reference/README.md): JavaScript-style CPF/CNPJ/codMun patterns, unanchored
// patterns, the string default of CobExpiracao.expiracao, the stray quote in
// RecNotification.required, the undefined top-level `location` CobVGerada requires, the
// `cobs` PixConsultados requires (copied from CobsConsultadas: its list is `pix`); CNPJ
// accepts the alphanumeric form of 2.9.0.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openApiAjv } from '../support/ajv';
import type { TestServer } from '../support/server';
import { type Json, loadDereferencedSpec, operationsOf } from '../support/spec';
import { startContractEnv } from './scenarios/env';
import { type ContractEnv, scenarios } from './scenarios/index';

const OFFICIAL_FILE = resolve(import.meta.dirname, 'official/openapi-2.8.2.yaml');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

// Official operations not replayed, and why (printed at the end).
const SKIPPED: Record<string, string> = {};

// Official examples the server does not accept yet, and why (printed as pending). An entry
// that starts passing fails the test, so that it is removed.
const PENDING: Record<string, string> = {};
const pendingSeen: string[] = [];

// ---- the official file, with its known defects corrected --------------------------------

function correctDefects(spec: Json): Json {
  const walk = (node: Json, key?: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n));
    if (!node || typeof node !== 'object') return;
    if (typeof node.pattern === 'string') {
      let p: string = node.pattern;
      if (p === '/^\\d{11}$/') p = '^[0-9]{11}$';
      else if (p === '/^\\d{14}$/') p = '^[0-9A-Z]{12}[0-9]{2}$';
      else if (/^\/\^.*\$\/$/.test(p)) p = p.slice(1, -1);
      if (!p.startsWith('^')) p = `^(?:${p})$`;
      node.pattern = p;
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') walk(v, k);
    void key;
  };
  walk(spec.components.schemas);
  walk(spec.paths);
  const schemas = spec.components.schemas;
  delete schemas.CobExpiracao.properties.expiracao.default;
  const fixRequired = (s: Json) => {
    if (Array.isArray(s?.required)) s.required = s.required.map((r: string) => r.replace(/"$/, ''));
    for (const part of s?.allOf ?? []) fixRequired(part);
  };
  fixRequired(schemas.RecNotification);
  const dropLocation = (s: Json) => {
    if (Array.isArray(s?.required)) s.required = s.required.filter((r: string) => r !== 'location');
    for (const part of s?.allOf ?? []) dropLocation(part);
  };
  dropLocation(schemas.CobVGerada);
  schemas.PixConsultados.required = schemas.PixConsultados.required.filter((r: string) => r !== 'cobs');
  return spec;
}

const official: Json = await $RefParser.dereference(correctDefects(parse(readFileSync(OFFICIAL_FILE, 'utf8'))));
const ours = await loadDereferencedSpec('pix');
const ajv = openApiAjv();

type AjvError = { instancePath: string; keyword: string; params: Record<string, unknown>; message?: string };
// Where and how: array indices dropped, so that one example's item stands for every item.
const signature = (e: AjvError) =>
  `${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*')} ${e.keyword} ${JSON.stringify(e.params)}`;
// Examples written as {allOf: [$ref to another example's value]} are not instances.
const hasAllOf = (v: unknown): boolean =>
  Array.isArray(v)
    ? v.some(hasAllOf)
    : Boolean(v && typeof v === 'object' && ('allOf' in v || Object.values(v).some(hasAllOf)));

// How the official response schemas fail the file's own response examples.
const OFFICIAL_DEFECTS = new Set<string>();
const officialResponses = Object.values<Json>(official.paths).flatMap((item) =>
  METHODS.flatMap((method) => Object.values<Json>(item[method]?.responses ?? {})),
);
for (const media of officialResponses.map((response) => response.content?.['application/json'])) {
  if (!media?.schema) continue;
  const validate = ajv.compile(media.schema);
  for (const ex of Object.values<Json>(media.examples ?? {})) {
    if (!hasAllOf(ex.value) && !validate(ex.value))
      for (const e of validate.errors as AjvError[]) OFFICIAL_DEFECTS.add(signature(e));
  }
}
const tolerated = new Set<string>();
const adaptations: string[] = [];

// The official paths on our server: the payload locations live under /qr/v2, the rest under /pix/v2.
function ourPath(path: string): string {
  if (path === '/{pixUrlAccessToken}' || path === '/cobv/{pixUrlAccessToken}' || path === '/rec/{recUrlAccessToken}')
    return `/qr/v2${path}`;
  return `/pix/v2${path}`;
}
const ourOperations = new Map(operationsOf(ours).map((o) => [`${o.method} ${o.path}`, o]));

// ---- the server ---------------------------------------------------------------------------

let server: TestServer;
let env: ContractEnv;
let replayed = 0;
let validated = 0;

test.before(async () => {
  ({ server, env } = await startContractEnv());
});
test.after(async () => {
  await server.close();
  const skipped = Object.entries(SKIPPED);
  console.log(
    `\nnote: ${replayed} official requests replayed, ${validated} answers validated against the official schemas`,
  );
  if (pendingSeen.length)
    console.log(`pending: ${pendingSeen.length} official examples not accepted yet: ${pendingSeen.join('; ')}`);
  for (const a of adaptations) console.log(`note: adapted ${a}`);
  console.log(
    `note: ${tolerated.size} official-schema defects tolerated (its own examples fail them too): ${[...tolerated].sort().join('; ')}`,
  );
  if (skipped.length)
    console.log(`note: skipped ${skipped.length}: ${skipped.map(([k, why]) => `${k} (${why})`).join('; ')}`);
});

async function today(): Promise<string> {
  const res = await env.client.get('/api/v1/sandbox/clock');
  return String(res.body.now).slice(0, 10);
}

// The example with every date and date-time moved so that its earliest falls tomorrow
// (distances kept); the scenarios then move them again from their own reference day.
async function datesAhead(example: unknown): Promise<unknown> {
  const dates: number[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(v))
      dates.push(Date.parse(`${v.slice(0, 10)}T00:00:00Z`));
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(example);
  if (!dates.length) return example;
  const shift = Date.parse(`${await today()}T00:00:00Z`) + 86400_000 - Math.min(...dates);
  const move = (v: unknown): unknown => {
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(v)) {
      const day = new Date(Date.parse(`${v.slice(0, 10)}T00:00:00Z`) + shift).toISOString().slice(0, 10);
      return day + v.slice(10);
    }
    if (Array.isArray(v)) return v.map(move);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, move(x)]));
    return v;
  };
  return move(example);
}

// A recurrence of the company, approved by the payer, whose fixed amount is the example's:
// the official recurring-charge example bills a recurrence that exists only in the file.
async function approvedRecOf(amount: string): Promise<string> {
  const vinculo = {
    objeto: 'Servico de streaming',
    devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
    contrato: '63100862',
  };
  const calendario = await datesAhead({ dataInicial: '2024-04-01', periodicidade: 'MENSAL' });
  const loc = await env.client.post('/pix/v2/locrec', undefined, { auth: env.bearer });
  const rec = await env.client.post(
    '/pix/v2/rec',
    { vinculo, calendario, valor: { valorRec: amount }, politicaRetentativa: 'NAO_PERMITE', loc: loc.body.id },
    { auth: env.bearer },
  );
  assert.is(rec.status, 201, rec.text);
  // The payer approves through the recurrence's QR code (journey 2).
  const accepted = await env.client.post(`/api/v1/sandbox/rec/${rec.body.idRec}/accept`);
  assert.is(accepted.status, 200, accepted.text);
  return rec.body.idRec;
}

// Locations named inside batch items belong to no company here: fresh ones of the company.
async function freshBatchLocations(example: unknown): Promise<unknown> {
  const body = example as { cobsv?: Array<Record<string, unknown>> };
  if (!Array.isArray(body?.cobsv)) return example;
  const cobsv = [];
  for (const item of body.cobsv) {
    if (item.loc === undefined) cobsv.push(item);
    else {
      const loc = await env.client.post('/pix/v2/loc', { tipoCob: 'cobv' }, { auth: env.bearer });
      assert.is(loc.status, 201, loc.text);
      cobsv.push({ ...item, loc: { id: loc.body.id } });
    }
  }
  return { ...body, cobsv };
}

function officialSchema(op: Json, status: number): Json | undefined {
  return op.responses?.[String(status)]?.content?.['application/json']?.schema;
}

// A defect of the official file: its own examples fail the same rule at the same place, or
// at the same place inside an object nested here (a recPayload inside a recurrence's
// solicitacao fails as the recPayload of a solicrec does).
function officialDefect(e: AjvError): boolean {
  const parts = e.instancePath.split('/');
  return parts.some((_, i) =>
    OFFICIAL_DEFECTS.has(signature({ ...e, instancePath: ['', ...parts.slice(i + 1)].join('/') })),
  );
}

// Required properties the official examples leave out but a client validating answers against
// the official file needs, so pixgate fills them (never tolerated): loc.txid of cob and cobv,
// cnpj of webhooks, tipo of locrec, pagador and rec of solicrec, and the payer's PSP
// (ispbParticipante) of a recurrence once its state names it (a payer or a confirmation request).
const MUST_FILL = ['txid', 'cnpj', 'tipo', 'pagador', 'rec'];
function mustFill(e: AjvError, value: unknown): boolean {
  if (e.keyword !== 'required') return false;
  const missing = String(e.params.missingProperty);
  if (MUST_FILL.includes(missing)) return true;
  const answer = value as { pagador?: unknown; solicitacao?: unknown[] } | undefined;
  return missing === 'ispbParticipante' && Boolean(answer?.pagador ?? answer?.solicitacao?.length);
}

function check(where: string, schema: Json, value: unknown): string[] {
  const validate = ajv.compile(schema);
  validated++;
  if (validate(value)) return [];
  const ours: AjvError[] = [];
  for (const e of validate.errors as AjvError[]) {
    if (officialDefect(e) && !mustFill(e, value))
      tolerated.add(`${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/'} ${e.message}`);
    else ours.push(e);
  }
  // oneOf/anyOf summaries follow from the errors inside them: keep them only with a real one.
  const real = ours.filter((e) => !['oneOf', 'anyOf', 'allOf'].includes(e.keyword));
  return real.length
    ? [`${where}: ${real.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ')}`]
    : [];
}

// A valid CPF for an example's CPF whose check digits are wrong.
function cpfDigit(ds: number[]): number {
  return ((ds.reduce((sum, d, i) => sum + d * (ds.length + 1 - i), 0) * 10) % 11) % 10;
}
function validCpf(cpf: string): string {
  const base = cpf.slice(0, 9).split('').map(Number);
  const first = cpfDigit(base);
  return [...base, first, cpfDigit([...base, first])].join('');
}

// The example as its official schema wants it (see the header), with what changed.
function conform(where: string, example: unknown): unknown {
  let value = structuredClone(example);
  const notes: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}/${i}`));
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (k === 'cpf' && typeof x === 'string' && /^\d{11}$/.test(x) && validCpf(x) !== x) {
          notes.push(`${path}/cpf ${x} has wrong check digits: sent as ${validCpf(x)}`);
          return [k, validCpf(x)];
        }
        return [k, walk(x, `${path}/${k}`)];
      }),
    );
  };
  value = walk(value, '');
  if (notes.length) adaptations.push(`${where}: ${notes.join(', ')}`);
  return value;
}

// The signed payload served at a payload location, validated against the official payload schema.
function checkJws(where: string, schemaName: string, jws: string): string[] {
  const header = decodeProtectedHeader(jws);
  const problems = ['alg', 'kid', 'jku', 'x5t']
    .filter((h) => !(h in header))
    .map((h) => `${where}: JWS header lacks ${h}`);
  return [...problems, ...check(`${where} (JWS payload)`, official.components.schemas[schemaName], decodeJwt(jws))];
}

const PAYLOAD_SCHEMAS: Record<string, string> = {
  getCobPayload: 'CobPayload',
  getCobvPayload: 'CobVPayload',
  getRecPayload: 'RecPayload',
};

for (const [path, item] of Object.entries<Json>(official.paths)) {
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const mine = ourOperations.get(`${method} ${ourPath(path)}`);
    const label = `${method.toUpperCase()} ${path}`;
    if (!mine) {
      test(`official ${label} is an operation of ours`, () =>
        assert.unreachable(`${label}: no operation at ${ourPath(path)}`));
      continue;
    }
    const { operationId } = mine;
    const examples = Object.entries<Json>(op.requestBody?.content?.['application/json']?.examples ?? {}).map(
      ([name, ex]) => ({ name, value: ex.value }),
    );
    if (op.requestBody && examples.length === 0) {
      SKIPPED[label] = 'the official file gives no request example';
      continue;
    }
    test(`official ${label} (${operationId}) replays the standard's examples`, async () => {
      const failures: string[] = [];
      const success = Object.keys(op.responses).filter((s) => /^2/.test(s));
      for (const example of examples.length ? examples : [undefined]) {
        const where = `${label}${example ? ` ${example.name}` : ''}`;
        let value = example ? await datesAhead(conform(where, example.value)) : undefined;
        if (operationId === 'putLoteCobv') value = await freshBatchLocations(value);
        const prepared = (await scenarios[operationId]?.(env, value)) ?? {};
        if ((operationId === 'putCobr' || operationId === 'createCobr') && prepared.body) {
          const body = prepared.body as { idRec: string; valor: { original: string } };
          body.idRec = await approvedRecOf(body.valor.original);
        }
        const params = [...(mine.pathItem.parameters ?? []), ...(mine.op.parameters ?? [])];
        let url = mine.path;
        for (const p of params.filter((x: Json) => x.in === 'path'))
          url = url.replace(`{${p.name}}`, encodeURIComponent(String(prepared.params?.[p.name] ?? p.example)));
        const query = new URLSearchParams();
        // The official required query parameters (inicio, fim), with our examples' values.
        for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].filter(
          (x: Json) => x.in === 'query' && x.required,
        )) {
          const ex = params.find((x: Json) => x.name === p.name)?.example;
          assert.ok(ex !== undefined, `${where}: our spec gives no example for query ${p.name}`);
          query.set(p.name, String(ex));
        }
        for (const [k, v] of Object.entries(prepared.query ?? {})) query.set(k, v);
        if ([...query.keys()].length) url += `?${query}`;
        const open = Array.isArray(op.security) && op.security.length === 0;
        const auth =
          prepared.auth === undefined
            ? open || path.includes('AccessToken')
              ? undefined
              : env.bearer
            : (prepared.auth ?? undefined);
        const body = prepared.body ?? value;
        const res = await env.client.request(method.toUpperCase(), url, {
          ...(auth ? { auth } : {}),
          ...(body === undefined ? {} : { body }),
        });
        replayed++;
        if (PENDING[where]) {
          if (success.includes(String(res.status)))
            failures.push(`${where}: listed as pending but now answers ${res.status}: remove it from PENDING`);
          else pendingSeen.push(`${where} (${PENDING[where]})`);
          continue;
        }
        if (!success.includes(String(res.status))) {
          failures.push(
            `${where}: ${method.toUpperCase()} ${url} answered ${res.status}, the standard says ${success.join('/')}: ${res.text.slice(0, 500)}`,
          );
          continue;
        }
        const type = res.headers.get('content-type') ?? '';
        if (PAYLOAD_SCHEMAS[operationId]) {
          if (!/^application\/jose/.test(type))
            failures.push(`${where}: content-type ${type}, expected application/jose`);
          failures.push(...checkJws(where, PAYLOAD_SCHEMAS[operationId]!, res.text));
          continue;
        }
        const schema = officialSchema(op, res.status);
        if (!schema) {
          if (res.text)
            failures.push(
              `${where}: the standard defines no body for ${res.status}, we sent ${res.text.slice(0, 200)}`,
            );
          continue;
        }
        if (!/^application\/json/.test(type))
          failures.push(`${where}: content-type ${type}, expected application/json`);
        failures.push(...check(where, schema, res.body));
      }
      assert.equal(failures, [], failures.join('\n'));
    });
  }
}

test.run();
