// Lists by period count from the daily roll-up and start a deep skip at the day it lands on:
// whatever was rolled up, both APIs answer exactly what a plain scan of the charges gives
// (same rows in the same order, same totals), for periods with partial first and last days,
// without bounds, and past the end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHARGE_COUNTS_JOB } from '../../src/charges/charges.module';
import { startTestServer, type TestServer } from '../support/server';
import { advanceClock, chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await chargesCompany(server);
  other = await chargesCompany(server);
  // Six days of charges, some immediate (platform) and some due-date (Pix API), a few hours
  // apart; another company's charges on the same days must never show.
  let n = 0;
  for (let day = 0; day < 6; day++) {
    for (let i = 0; i < 4; i++) {
      n++;
      const res = await server.client.post(
        '/api/v1/charge',
        { correlationID: `p-${n}`, value: 100 + n, expiresIn: 30 * 86_400 },
        { auth: acme.appID },
      );
      assert.is(res.status, 200, res.text);
      if (i % 2 === 0) {
        const due = await server.client.put(
          `/pix/v2/cobv/pagingtest${String(n).padStart(20, '0')}`,
          {
            calendario: { dataDeVencimento: '2099-01-01' },
            devedor: { cpf: '52998224725', nome: 'Ana' },
            valor: { original: '5.00' },
            chave: acme.key,
          },
          { auth: acme.bearer },
        );
        assert.is(due.status, 201, due.text);
      }
      await server.client.post('/api/v1/charge', { correlationID: `o-${n}`, value: 1 }, { auth: other.appID });
      await advanceClock(server, acme, 5 * 3600);
    }
    await advanceClock(server, acme, 4 * 3600);
  }
});
test.after(async () => {
  await server.close();
});

async function reference(kind?: 'cob' | 'cobv') {
  let q = server.database.db
    .selectFrom('charges')
    .select(['correlation_id', 'txid', 'created_at'])
    .where('company_id', '=', acme.companyId);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('created_at').orderBy('id').execute();
}

async function checkPlatformLists() {
  const all = await reference();
  const at = (i: number) => all[Math.min(i, all.length - 1)]!.created_at.toISOString();
  const periods: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    [at(3), at(40)],
    [new Date(all[5]!.created_at.getTime() + 1).toISOString(), at(all.length - 2)],
    [at(0), undefined],
  ];
  for (const [start, end] of periods) {
    const inPeriod = all.filter(
      (c) => (!start || c.created_at.toISOString() >= start) && (!end || c.created_at.toISOString() <= end),
    );
    for (const [skip, limit] of [
      [0, 5],
      [7, 3],
      [13, 20],
      [inPeriod.length - 1, 5],
      [inPeriod.length + 3, 5],
    ] as const) {
      const query = new URLSearchParams({
        skip: String(skip),
        limit: String(limit),
        ...(start ? { start } : {}),
        ...(end ? { end } : {}),
      });
      const res = await server.client.get(`/api/v1/charge?${query}`, { auth: acme.appID });
      assert.is(res.status, 200, res.text);
      const want = inPeriod.slice(skip, skip + limit).map((c) => c.correlation_id ?? c.txid);
      assert.equal(
        res.body.charges.map((c: { correlationID: string }) => c.correlationID),
        want,
        `${start}..${end} skip ${skip}`,
      );
      assert.is(res.body.pageInfo.totalCount, inPeriod.length);
      assert.is(res.body.pageInfo.hasNextPage, skip + limit < inPeriod.length);
    }
  }
}

async function checkPixLists() {
  const cobvs = await reference('cobv');
  const inicio = new Date(cobvs[1]!.created_at.getTime() - 1).toISOString();
  const fim = cobvs[cobvs.length - 2]!.created_at.toISOString();
  const inPeriod = cobvs.filter((c) => c.created_at.toISOString() >= inicio && c.created_at.toISOString() <= fim);
  for (const [pagina, itens] of [
    [0, 2],
    [1, 3],
    [3, 2],
    [20, 2],
  ] as const) {
    const query = new URLSearchParams({
      inicio,
      fim,
      'paginacao.paginaAtual': String(pagina),
      'paginacao.itensPorPagina': String(itens),
    });
    const res = await server.client.get(`/pix/v2/cobv?${query}`, { auth: acme.bearer });
    assert.is(res.status, 200, res.text);
    assert.equal(
      res.body.cobs.map((c: { txid: string }) => c.txid),
      inPeriod.slice(pagina * itens, pagina * itens + itens).map((c) => c.txid),
    );
    assert.is(res.body.parametros.paginacao.quantidadeTotalDeItens, inPeriod.length);
  }
}

test('before any roll-up: every day is counted from the charges', async () => {
  const marks = await server.database.db.selectFrom('charge_day_counts').selectAll().execute();
  assert.equal(marks, []);
  await checkPlatformLists();
  await checkPixLists();
});

test('after the roll-up of the days the clock left behind: the same answers', async () => {
  await server.services.jobs.runNow(CHARGE_COUNTS_JOB);
  const rolled = await server.database.db
    .selectFrom('charge_day_counts')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .where('company_id', '=', acme.companyId)
    .executeTakeFirstOrThrow();
  assert.ok(Number(rolled.n) > 20, `rolled up ${rolled.n} charges`);
  await checkPlatformLists();
  await checkPixLists();
  // Rolling up again changes nothing.
  await server.services.jobs.runNow(CHARGE_COUNTS_JOB);
  await checkPlatformLists();
});

test('charges made after the roll-up on a new day are counted too', async () => {
  await advanceClock(server, acme, 2 * 86_400);
  for (let i = 0; i < 3; i++) {
    await server.client.post('/api/v1/charge', { correlationID: `late-${i}`, value: 5 }, { auth: acme.appID });
  }
  await checkPlatformLists();
  await server.services.jobs.runNow(CHARGE_COUNTS_JOB);
  await checkPlatformLists();
});

test.run();
