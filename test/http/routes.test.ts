// What dispatch reads of an operation at start-up (src/http/routes.ts): its security as
// alternatives of schemes, its array query parameters; and a parameter of a kind dispatch does
// not read stops the start instead of being validated differently than openapi-backend would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from 'openapi-backend';
import { routeOf } from '../../src/http/routes';
import type { OperationMeta } from '../../src/http/types';

const meta: OperationMeta = {
  operationId: 'listThings',
  method: 'get',
  path: '/things/{id}',
  tag: 'Things',
  security: [],
  scope: null,
  requestContentTypes: [],
  problemTypes: {},
};

const operationOf = (extra: Partial<Operation>): Operation => ({
  path: '/things/{id}',
  method: 'get',
  operationId: 'listThings',
  responses: {},
  ...extra,
});

test('security requirements become alternatives, each scheme named once', () => {
  const route = routeOf(meta, operationOf({ security: [{ AppID: [] }, {}, { AppID: [], Other: [] }] }), []);
  assert.equal(route.requirements, [['AppID'], [], ['AppID', 'Other']]);
  assert.equal(route.schemes, ['AppID', 'Other']);
});

test('array query parameters are known', () => {
  const route = routeOf(
    meta,
    operationOf({
      parameters: [
        { name: 'type', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        { name: 'skip', in: 'query', schema: { type: 'integer' } },
      ],
    }),
    [],
  );
  assert.equal([...route.arrayQuery], ['type']);
});

test('a cookie, JSON query or non-exploded query parameter stops the start', () => {
  const kinds = [
    { name: 'session', in: 'cookie', schema: { type: 'string' } },
    { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
    { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
  ];
  for (const parameter of kinds) {
    assert.throws(
      () => routeOf(meta, operationOf({ parameters: [parameter] as Operation['parameters'] }), []),
      /of a kind dispatch does not read/,
    );
  }
});

test.run();
