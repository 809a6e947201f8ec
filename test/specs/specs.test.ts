// Checks both contracts the way the rest of the project relies on them: every operation is
// addressable, secured and exemplified, and every example validates against its own schema.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openApiAjv } from '../support/ajv';
import { type Json, type SpecName, SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';

const ajv = openApiAjv();
// Media types whose examples are text we can check; binary bodies (image/png) are exempt.
const CHECKED_MEDIA = /json|jose|x-www-form-urlencoded/;

function examplesOf(media: Json): Array<[string, Json]> {
  return Object.entries<Json>(media.examples ?? {}).map(([name, ex]) => [name, ex.value]);
}

function validateExamples(where: string, media: Json, failures: string[]): number {
  const examples = examplesOf(media);
  if (media.schema === undefined) {
    failures.push(`${where}: no schema`);
    return examples.length;
  }
  const validate = ajv.compile(media.schema);
  for (const [name, value] of examples) {
    if (value === undefined) failures.push(`${where} example ${name}: no value`);
    else if (!validate(value)) failures.push(`${where} example ${name}: ${ajv.errorsText(validate.errors)}`);
  }
  return examples.length;
}

for (const name of SPEC_NAMES) {
  test(`${name}: every operation has an operationId, one tag and explicit security`, async () => {
    const spec = await loadDereferencedSpec(name);
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const { method, path, operationId, op } of operationsOf(spec)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (!operationId || !/^[a-z][a-zA-Z0-9]+$/.test(operationId)) problems.push(`${at}: operationId ${operationId}`);
      if (ids.has(operationId)) problems.push(`${at}: duplicate operationId ${operationId}`);
      ids.add(operationId);
      if (!Array.isArray(op.tags) || op.tags.length !== 1) problems.push(`${at}: needs exactly one tag`);
      if (!Array.isArray(op.security)) problems.push(`${at}: no security (use [] for open endpoints)`);
      if (name === 'platform' && op.security?.some((s: Json) => 'AppID' in s) && !op['x-scope']) {
        problems.push(`${at}: authenticated platform operation without x-scope`);
      }
      if (name === 'platform' && op['x-scope'] && !(spec['x-scopes'] ?? []).includes(op['x-scope'])) {
        problems.push(`${at}: x-scope ${op['x-scope']} is not listed in the root x-scopes`);
      }
    }
    assert.equal(problems, []);
  });

  test(`${name}: request bodies, 2xx and error responses carry named examples`, async () => {
    const spec = await loadDereferencedSpec(name);
    const missing: string[] = [];
    for (const { method, path, op } of operationsOf(spec)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        if (CHECKED_MEDIA.test(type) && examplesOf(media).length === 0) missing.push(`${at} request ${type}`);
      }
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          if (CHECKED_MEDIA.test(type) && examplesOf(media).length === 0) missing.push(`${at} ${status} ${type}`);
        }
      }
    }
    assert.equal(missing, []);
  });

  test(`${name}: every example validates against its schema`, async () => {
    const spec = await loadDereferencedSpec(name);
    const failures: string[] = [];
    let checked = 0;
    for (const { method, path, op, pathItem } of operationsOf(spec)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        if (CHECKED_MEDIA.test(type)) checked += validateExamples(`${at} request ${type}`, media, failures);
      }
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          if (CHECKED_MEDIA.test(type)) checked += validateExamples(`${at} ${status} ${type}`, media, failures);
        }
      }
      for (const param of [...(pathItem.parameters ?? []), ...(op.parameters ?? [])]) {
        if (param.example !== undefined && param.schema) {
          const validate = ajv.compile(param.schema);
          checked++;
          if (!validate(param.example)) failures.push(`${at} parameter ${param.name}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    assert.equal(failures, []);
    assert.ok(checked > 0, 'no example was checked');
  });

  test(`${name}: a broken example is caught by the check`, async () => {
    // Guards the check itself: a value of the wrong type must fail against a real schema.
    const spec = await loadDereferencedSpec(name as SpecName);
    const withBody = operationsOf(spec).find((o) => o.op.requestBody?.content?.['application/json']?.schema);
    assert.ok(withBody, 'spec has a JSON request body');
    const validate = ajv.compile(withBody!.op.requestBody.content['application/json'].schema);
    assert.not.ok(validate(12345), 'a number is not a valid request body');
  });
}


// Limits on everything: a string without maxLength (or an enum) or an array without maxItems
// is an input the server has not decided how much of to take.
function unlimited(node: Json, path: string, seen: Set<object>, out: string[]): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (node.type === 'string' && node.maxLength === undefined && node.enum === undefined) out.push(path);
  if (node.type === 'array' && node.maxItems === undefined) out.push(path);
  for (const [key, value] of Object.entries<Json>(node)) {
    if (key !== 'example' && key !== 'examples') unlimited(value, `${path}/${key}`, seen, out);
  }
}

for (const name of SPEC_NAMES) {
  test(`${name}: every string has a maxLength and every array a maxItems`, async () => {
    const out: string[] = [];
    unlimited(await loadDereferencedSpec(name), '#', new Set(), out);
    assert.equal(out.slice(0, 20), [], `${out.length} schemas without a limit`);
  });
}

test.run();
