// The two specs as the server loads them: codegen (scripts/generate.ts) stores each parsed
// spec as JSON in generated/<name>.spec.json with the SHA-256 of the YAML it came from.
// Parsing the YAML at start-up cost about 0.3 s (openapi-backend parsed each file twice);
// JSON.parse of the same document takes a few milliseconds. A spec edited since the last
// `make generate` is parsed from its YAML (the stored JSON would be out of date), and
// `make check` fails until generated/ is brought up to date.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from 'openapi-backend';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../lib/root';

export type SpecName = 'platform' | 'pix';

// An OpenAPI 3 document, as openapi-backend takes it (the specs are checked by lint and tests,
// not at start-up).
export type SpecDocument = Document;

export interface StoredSpec {
  source: string;
  sha256: string;
  document: SpecDocument;
}

export function specYamlPath(name: SpecName): string {
  return join(PROJECT_ROOT, 'specs', `${name}.yaml`);
}

function storedSpecPath(name: SpecName): string {
  return join(PROJECT_ROOT, 'generated', `${name}.spec.json`);
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// The same parser as codegen's, so the stored document and a fresh parse are equal.
export function parseSpecYaml(text: string): SpecDocument {
  return parse(text) as SpecDocument;
}

export function loadSpecDocument(name: SpecName): SpecDocument {
  const stored = storedSpecPath(name);
  return documentOf(
    readFileSync(specYamlPath(name), 'utf8'),
    existsSync(stored) ? (JSON.parse(readFileSync(stored, 'utf8')) as StoredSpec) : undefined,
  );
}

// The stored document when it was made from this very YAML, else the YAML parsed.
export function documentOf(yamlText: string, stored: StoredSpec | undefined): SpecDocument {
  return stored?.sha256 === sha256Of(yamlText) ? stored.document : parseSpecYaml(yamlText);
}
