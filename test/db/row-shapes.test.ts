// A named statement describes its rows once per connection (src/db/preparing-client.ts,
// NamedQuery): later runs send Bind, Execute and Sync only and parse the rows with the shape
// kept. Each run must still answer exactly what a described run answers (every column, each
// parsed to its type), a run that fails must leave the connection usable for the next, and a
// new connection describes again. Postgres only: the embedded database has no wire protocol.
import { Kysely, PostgresDialect, sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prepared, runPreparedDirectly } from '../../src/db/prepared';
import { PreparingClient } from '../../src/db/preparing-client';
import type { Database } from '../../src/db/schema';
import { postgresOnly } from '../support/skip';

const url = process.env.DATABASE_URL;

// A statement of several types, none of them from a table (so it runs on any database).
const sample = prepared(['n', 'label'], (db, p: { n: number; label: string }) =>
  db.selectNoFrom([
    sql<number>`${p.n}::int`.as('n'),
    sql<string>`${p.label}::text`.as('label'),
    sql<Date>`timestamptz '2026-11-26 12:34:56.789+00' + make_interval(days => ${p.n}::int)`.as('at'),
    sql<boolean>`${p.n}::int % 2 = 0`.as('even'),
    sql<unknown>`jsonb_build_object('n', ${p.n}::int)`.as('doc'),
    sql<string | null>`null::text`.as('nothing'),
  ]),
);

// Runs prepared queries of `db` on `client` only, as the pool's direct runner does.
function onClient(client: PreparingClient): Kysely<Database> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: undefined as never }) });
  runPreparedDirectly(db, async (text, values) => (await client.query(text, values)).rows);
  return db;
}

async function connected(): Promise<{ client: PreparingClient; describes: () => number }> {
  const client = new PreparingClient({
    connectionString: url,
    bounds: { connectMs: 10_000, statementBoundMs: 10_000 },
  });
  await client.connect();
  const connection = (client as unknown as { connection: { describe: (...args: unknown[]) => void } }).connection;
  let count = 0;
  const describe = connection.describe.bind(connection);
  connection.describe = (...args: unknown[]) => {
    count++;
    describe(...args);
  };
  return { client, describes: () => count };
}

const expected = (n: number) => ({
  n,
  label: `run ${n}`,
  at: new Date(Date.parse('2026-11-26T12:34:56.789Z') + n * 86_400_000),
  even: n % 2 === 0,
  doc: { n },
  nothing: null,
});

postgresOnly('later runs skip the Describe and answer what a described run does', async () => {
  const { client, describes } = await connected();
  try {
    const db = onClient(client);
    for (const n of [1, 2, 3, 4]) {
      const rows = await sample(db, { n, label: `run ${n}` });
      assert.equal(rows, [expected(n)]);
      assert.instance(rows[0]!.at, Date);
    }
    assert.is(describes(), 1, 'described on the first run only');
  } finally {
    await client.end();
  }
});

postgresOnly('a failed run leaves the connection to run the statement again', async () => {
  const { client, describes } = await connected();
  try {
    const db = onClient(client);
    assert.equal(await sample(db, { n: 1, label: 'run 1' }), [expected(1)]);
    // Postgres refuses the value at Bind ("invalid input syntax for type integer").
    const failed = await sample(db, { n: 'x' as unknown as number, label: 'bad' }).then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    assert.is(failed?.code, '22P02', String(failed));
    assert.equal(await sample(db, { n: 2, label: 'run 2' }), [expected(2)]);
    assert.is(describes(), 1);
  } finally {
    await client.end();
  }
});

postgresOnly('a new connection describes the statement again', async () => {
  for (const n of [5, 6]) {
    const { client, describes } = await connected();
    try {
      assert.equal(await sample(onClient(client), { n, label: `run ${n}` }), [expected(n)]);
      assert.is(describes(), 1);
    } finally {
      await client.end();
    }
  }
});

test.run();
