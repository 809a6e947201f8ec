// pagedRows: a page of a list and the count of the whole list in one statement; past the end
// the count comes from countPastEnd (or is 0 without it), and no row carries the count.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pagedRows } from '../../src/db/paging';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
const prefix = `paging-${randomUUID()}`;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  const now = new Date();
  for (const n of [1, 2, 3]) {
    await server.database.db
      .insertInto('companies')
      .values({
        id: randomUUID(),
        name: `${prefix}-${n}`,
        tax_id: `0000000000000${n}`,
        official_name: `${prefix}-${n}`,
        trade_name: `${prefix}-${n}`,
        features: JSON.stringify([]),
        created_at: now,
      })
      .execute();
  }
});
test.after(async () => server.close());

const list = () =>
  server.database.db.selectFrom('companies').select(['name']).where('name', 'like', `${prefix}-%`).orderBy('name');

test('a page of the list with the count of the whole list', async () => {
  const page = await pagedRows(list(), { skip: 1, limit: 1 });
  assert.equal(page, { rows: [{ name: `${prefix}-2` }], total: 3 });
});

test('past the end: the count from countPastEnd, 0 without it', async () => {
  assert.equal(await pagedRows(list(), { skip: 5, limit: 2 }, { countPastEnd: async () => 3 }), {
    rows: [],
    total: 3,
  });
  assert.equal(await pagedRows(list(), { skip: 5, limit: 2 }), { rows: [], total: 0 });
});

test('an empty list from its start counts 0 without asking countPastEnd', async () => {
  const empty = list().where('name', '=', 'none');
  let asked = false;
  const countPastEnd = async () => {
    asked = true;
    return 3;
  };
  assert.equal(await pagedRows(empty, { skip: 0, limit: 2 }, { countPastEnd }), { rows: [], total: 0 });
  assert.is(asked, false);
});

test.run();
