// The spec the server loads (generated/<name>.spec.json, src/http/spec-document.ts) is the
// YAML as openapi-backend's own parser read it before, and a stored copy made from another
// version of the YAML is never used.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { documentOf, loadSpecDocument, sha256Of, specYamlPath } from '../../src/http/spec-document';
import { SPEC_NAMES } from '../support/spec';

for (const name of SPEC_NAMES) {
  test(`${name}: the stored document equals the YAML read by json-schema-ref-parser`, async () => {
    const byRefParser = await $RefParser.parse(specYamlPath(name));
    assert.equal(loadSpecDocument(name), byRefParser);
  });
}

test('a stored document made from other YAML is ignored: the YAML given is parsed', () => {
  const yaml = 'openapi: 3.0.3\ninfo:\n  title: now\n  version: "2"\npaths: {}\n';
  const old = { source: 'specs/x.yaml', sha256: sha256Of('openapi: 3.0.3\n'), document: { openapi: '3.0.3', info: { title: 'then', version: '1' }, paths: {} } };
  assert.equal(documentOf(yaml, old), { openapi: '3.0.3', info: { title: 'now', version: '2' }, paths: {} });
  const current = { ...old, sha256: sha256Of(yaml) };
  assert.equal(documentOf(yaml, current), old.document);
  assert.equal(documentOf(yaml, undefined).info, { title: 'now', version: '2' });
});

test.run();
