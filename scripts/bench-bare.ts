// The yardstick of `make bench`: a bare Koa + @koa/router + koa-body server with raw SQL
// doing the least the same work needs (a charge is one transaction of location, charge and
// outbox inserts; a read is one indexed SELECT), on the same tables as pixgate. Started as a
// child process by scripts/bench.ts: `tsx scripts/bench-bare.ts` with BENCH_DB (postgres
// URL, or 'embedded' for its own in-memory PGlite migrated like pixgate's), BENCH_COMPANY,
// BENCH_ACCOUNT and PORT. Prints "listening <port>" once ready.
import { constants, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import pg from 'pg';

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
interface Sql {
  query: Query;
  // Runs `work` in one transaction on one connection.
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
}

async function postgres(url: string): Promise<Sql> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    query: (text, values) => pool.query(text, values as unknown[]),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work((text, values) => client.query(text, values as unknown[]));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

// A compact PS256 JWS signer with its own RSA-2048 key: node:crypto on the thread pool.
function bareSigner(): (payload: object) => Promise<string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const options = {
    key: privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  };
  const header = Buffer.from(
    JSON.stringify({ alg: 'PS256', kid: 'bare', jku: 'https://bare/jwks', x5t: 'bare' }),
  ).toString('base64url');
  return async (payload) => {
    const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = await new Promise<Buffer>((resolve, reject) =>
      sign('sha256', Buffer.from(input), options, (error, bytes) => (error ? reject(error) : resolve(bytes))),
    );
    return `${input}.${signature.toString('base64url')}`;
  };
}

const company = process.env.BENCH_COMPANY!;
const account = process.env.BENCH_ACCOUNT!;

// The least a charge creation needs: charge, location and event in one transaction.
async function createCharge(db: Sql, ctx: Koa.Context, txid: string): Promise<void> {
  const body = ctx.request.body as { value?: number; correlationID?: string };
  const id = `ch_${randomBytes(12).toString('hex')}`;
  const now = new Date();
  const charge = { calendario: { criacao: now.toISOString(), expiracao: 86400 }, valor: { original: '12.34' } };
  const token = randomUUID();
  const row = await db.transaction(async (query) => {
    const loc = await query(
      'insert into locations (company_id, kind, token, charge_id, linked_once, created_at) values ($1, $2, $3, $4, true, $5) returning id',
      [company, 'cob', token, id, now],
    );
    const inserted = await query(
      `insert into charges (id, company_id, account_id, kind, platform_type, txid, correlation_id, status, revision, value,
         pix_key, location_id, payment_link_id, body, platform, created_at, updated_at, expires_at, payable_until)
       values ($1, $2, $3, 'cob', 'DYNAMIC', $4, $5, 'ATIVA', 0, $6, 'bench', $7, $8, $9, '{}', $10, $10, $11, $11) returning *`,
      [
        id,
        company,
        account,
        txid,
        body.correlationID ?? null,
        body.value ?? 1234,
        loc.rows[0]!.id,
        randomUUID(),
        JSON.stringify(charge),
        now,
        new Date(now.getTime() + 86_400_000),
      ],
    );
    await query('insert into events (id, company_id, type, payload, created_at) values ($1, $2, $3, $4, $5)', [
      randomUUID(),
      company,
      'OPENPIX:CHARGE_CREATED',
      JSON.stringify({ charge: inserted.rows[0] }),
      now,
    ]);
    return inserted.rows[0]!;
  });
  ctx.body = { charge: row, token };
}

async function main(): Promise<void> {
  const db = process.env.BENCH_DB === 'embedded' ? await openEmbeddedBare() : await postgres(process.env.BENCH_DB!);
  const app = new Koa();
  app.use(koaBody({ jsonLimit: '1mb' }));
  const router = new Router();
  router.post('/api/v1/charge', (ctx) => createCharge(db, ctx, randomBytes(16).toString('hex')));
  router.put('/pix/v2/cob/:txid', async (ctx) => {
    await createCharge(db, ctx, ctx.params.txid!);
    ctx.status = 201;
  });
  router.get('/api/v1/charge/:id', async (ctx) => {
    const { rows } = await db.query('select * from charges where company_id = $1 and id = $2', [
      company,
      ctx.params.id,
    ]);
    if (!rows[0]) ctx.throw(404);
    ctx.body = { charge: rows[0] };
  });
  // The payload location as a bare signer serves it: the same payload (the stored body with
  // its txid, revision and status) signed PS256 with a 2048-bit RSA key, the header made once.
  const signer = bareSigner();
  router.get('/qr/v2/:token', async (ctx) => {
    const { rows } = await db.query(
      'select c.body, c.txid, c.revision, c.status from locations l join charges c on c.id = l.charge_id where l.token = $1',
      [ctx.params.token],
    );
    const row = rows[0];
    if (!row) ctx.throw(404);
    const payload = { ...(row.body as object), txid: row.txid, revisao: row.revision, status: row.status };
    ctx.type = 'application/jose';
    ctx.body = await signer(payload);
  });
  app.use(router.routes());
  const server = app.listen(Number(process.env.PORT ?? 0), () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
}

// The embedded yardstick: its own PGlite, migrated like pixgate's, with the bench company.
async function openEmbeddedBare(): Promise<Sql> {
  const { openDatabase } = await import('../src/db/database');
  const { migrateToLatest } = await import('../src/db/migrate');
  const { CompiledQuery } = await import('kysely');
  const handle = await openDatabase({});
  await migrateToLatest(handle.db);
  const run =
    (executor: typeof handle.db): Query =>
    async (text, values = []) => {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as Record<string, unknown>[] };
    };
  await run(handle.db)(
    `insert into companies (id, name, tax_id, official_name, trade_name, features, created_at) values ($1, 'Bench', '11222333000181', 'Bench', 'Bench', '[]', now())`,
    [company],
  );
  await run(handle.db)(
    `insert into bank_accounts (id, company_id, is_default, branch, account_number, account_name, status, created_at) values ($1, $2, true, '0001', '12345678', 'Bench', 'OPEN', now())`,
    [account, company],
  );
  return {
    query: run(handle.db),
    transaction: (work) => handle.db.transaction().execute((trx) => work(run(trx))),
  };
}

// A clean exit on the benchmark's SIGTERM: what exit hooks write (--cpu-prof) is written.
process.once('SIGTERM', () => process.exit(0));
await main();
