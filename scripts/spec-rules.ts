// Two rules that make the specs generate usable clients (openapi-typescript, @hey-api/openapi-ts
// with default options), applied to specs/*.yaml in place; `--check` fails when a spec breaks
// them (test/specs/spec-rules.test.ts runs it). Idempotent: run it after editing a spec.
//
// 1. No `default` keyword on a property of a schema that a request body uses: generators read
//    `default` as "always present" and make the property required, so the README's own charge
//    body (no `type`) or a cob with `calendario: {}` failed to type-check. The server applies
//    defaults in its own code (the validator does not fill them in), so the keyword only
//    documents: the rule moves it into the description ("Default: `DYNAMIC`.").
// 2. Fields the server always returns are required in the response schemas (ALWAYS_RETURNED),
//    so a typed client reads charge.paymentLinkUrl without a check. Every test validates every
//    answer against the spec, so a field listed here that an answer lacks fails the suite.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document, type YAMLMap } from 'yaml';

const SPECS = resolve(import.meta.dirname, '../specs');

type Path = Array<string | number>;

// Where a response schema's always-returned fields are added to `required`. `restateFrom`: the
// fields live in a schema the response reaches through allOf and that requests share (where
// they stay optional); generators ignore a required list beside such a $ref, so an allOf
// member restates them from there, required.
interface ReturnedRule {
  path: Path;
  fields: string[];
  restateFrom?: Path;
}

const ALWAYS_RETURNED: Record<string, ReturnedRule[]> = {
  platform: [
    // made by POST /api/v1/application and POST /api/v1/sandbox/companies, the only answers with it
    { path: ['components', 'schemas', 'Application'], fields: ['appID', 'clientId', 'clientSecret'] },
    {
      path: ['components', 'schemas', 'Charge'],
      fields: [
        'type',
        'globalID',
        'paymentLinkID',
        'paymentLinkUrl',
        'qrCodeImage',
        'pixKey',
        'expiresDate',
        'updatedAt',
      ],
    },
  ],
  pix: [
    // a cob as created, revised or read: its key (not pixCopiaECola: a cob whose location was
    // unlinked has none)
    {
      path: ['components', 'schemas', 'CobGerada'],
      fields: ['chave'],
      restateFrom: ['components', 'schemas', 'CobBase'],
    },
  ],
};

const RESTATED = 'Always returned (restated by scripts/spec-rules.ts).';

type Json = Record<string, unknown>;

function refName(node: unknown, kind: string): string | undefined {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  const prefix = `#/components/${kind}/`;
  return typeof ref === 'string' && ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

// The component schemas a request body reaches, through $refs at any depth.
function requestSchemas(spec: Json): Set<string> {
  const components = spec.components as { schemas: Json; requestBodies?: Json };
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const schema = refName(node, 'schemas');
    if (schema !== undefined) {
      if (!seen.has(schema)) (seen.add(schema), visit(components.schemas[schema]));
      return;
    }
    const body = refName(node, 'requestBodies');
    if (body !== undefined) return visit(components.requestBodies?.[body]);
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') visit(value);
  };
  for (const item of Object.values(spec.paths as Json))
    for (const op of Object.values(item as Json)) visit((op as { requestBody?: unknown } | null)?.requestBody);
  return seen;
}

// Paths (in the document) of every property that declares a default, under a schema node.
function defaultedProperties(node: unknown, path: Path, out: Path[]): Path[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    node.forEach((item, i) => defaultedProperties(item, [...path, i], out));
    return out;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, property] of Object.entries(value)) {
        if (property && typeof property === 'object' && 'default' in property) out.push([...path, 'properties', name]);
      }
    }
    defaultedProperties(value, [...path, key], out);
  }
  return out;
}

// Rule 1: the defaults of request properties, moved into their descriptions.
function moveRequestDefaults(doc: Document, problems: string[]): void {
  const spec = doc.toJS() as Json;
  const schemas = (spec.components as { schemas: Json }).schemas;
  for (const name of requestSchemas(spec)) {
    for (const path of defaultedProperties(schemas[name], ['components', 'schemas', name], [])) {
      const property = doc.getIn(path) as YAMLMap;
      const value = property.get('default', false);
      const note = `Default: \`${typeof value === 'string' ? value : JSON.stringify((value as { toJSON(): unknown }).toJSON?.() ?? value)}\`.`;
      const description = String(property.get('description') ?? '').trim();
      property.set('description', description ? `${description.replace(/\.?$/, '.')} ${note}` : note);
      property.delete('default');
      problems.push(`${path.join('.')}: a request property declares a default`);
    }
  }
}

// Rule 2: always-returned fields in `required`.
function requireReturned(doc: Document, rules: ReturnedRule[], problems: string[]): void {
  for (const { path, fields, restateFrom } of rules) {
    const node = doc.getIn(path, true);
    if (!isMap(node)) throw new Error(`${path.join('.')}: not a schema`);
    if (restateFrom) restate(doc, node, path, fields, restateFrom, problems);
    else addRequired(doc, node, path, fields, problems);
  }
}

function addRequired(doc: Document, node: YAMLMap, path: Path, fields: string[], problems: string[]): void {
  const existing = node.get('required', true) as unknown;
  const required = isSeq(existing) ? existing : doc.createNode([]);
  if (required !== existing) node.set('required', required);
  const present = new Set(required.items.map((i) => (isScalar(i) ? i.value : i)));
  for (const field of fields) {
    if (present.has(field)) continue;
    required.add(doc.createNode(field));
    problems.push(`${path.join('.')}: ${field} is always returned but not required`);
  }
}

function restate(doc: Document, node: YAMLMap, path: Path, fields: string[], from: Path, problems: string[]): void {
  const source = doc.getIn([...from, 'properties']) as YAMLMap | undefined;
  const properties = Object.fromEntries(fields.map((f) => [f, (source?.get(f, true) as unknown as YAMLMap).toJSON()]));
  const member = { type: 'object', description: RESTATED, required: fields, properties };
  const allOf = node.get('allOf', true);
  if (!isSeq(allOf)) throw new Error(`${path.join('.')}: no allOf to restate fields in`);
  const at = allOf.items.findIndex((m) => isMap(m) && m.get('description') === RESTATED);
  const current = at >= 0 ? JSON.stringify((allOf.items[at] as YAMLMap).toJSON()) : undefined;
  if (current === JSON.stringify(member)) return;
  if (at >= 0) allOf.items[at] = doc.createNode(member);
  else allOf.add(doc.createNode(member));
  problems.push(`${path.join('.')}: ${fields.join(', ')} always returned but not restated as required`);
}

const check = process.argv.includes('--check');
const problems: string[] = [];
for (const name of Object.keys(ALWAYS_RETURNED)) {
  const file = resolve(SPECS, `${name}.yaml`);
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text);
  const found: string[] = [];
  moveRequestDefaults(doc, found);
  requireReturned(doc, ALWAYS_RETURNED[name]!, found);
  problems.push(...found.map((p) => `${name}.yaml ${p}`));
  const next = doc.toString({ lineWidth: 0 });
  if (!check && next !== text) writeFileSync(file, next);
}
if (check && problems.length) {
  console.error(`specs break the client rules (run tsx scripts/spec-rules.ts):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(check ? 'specs follow the client rules' : `spec rules: ${problems.length} changes`);
