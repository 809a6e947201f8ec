// The standard's dates are civil dates in Brasília: a due-date charge is payable through
// 23:59:59.999 America/Sao_Paulo of its last day (dueDate + validity), 02:59:59.999 UTC of the
// next day, on every reader alike: the platform API, the Pix API, the payer page, the sandbox
// payer and the expiry job; its amounts are those of the Brasília day. The company's clock is
// moved to 23:30 in Brasília of the last day (02:30 UTC the day after: past the end of the day
// in UTC), then past midnight in Brasília.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { addCalendarDays } from '../../src/lib/business-days';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceClock, chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let lastDay: string;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
  const clock = await server.client.get('/api/v1/sandbox/clock', { auth: acme.appID });
  // Two days ahead in any zone: the due date is in the future on both calendars.
  lastDay = addCalendarDays(String(clock.body.now).slice(0, 10), 2);
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const TXID = 'brasiliaDayCobv00000000000000001';
const platform = { auth: () => acme.appID };

async function moveClockTo(at: string): Promise<void> {
  const clock = await server.client.get('/api/v1/sandbox/clock', { auth: acme.appID });
  const seconds = Math.ceil((Date.parse(at) - Date.parse(clock.body.now)) / 1000);
  assert.ok(seconds > 0, `the clock is before ${at}`);
  await advanceClock(server, acme, seconds);
}

const expiredEvents = async () =>
  (await listEventsOfCompany(server.database.db, acme.companyId, 'OPENPIX:CHARGE_EXPIRED')).map(
    (e) => (e.payload as any).charge.correlationID as string,
  );

async function pay(brCode: string) {
  return server.client.post('/api/v1/sandbox/pay', { brCode, payer: { name: 'Ana Souza', taxID: '52998224725' } });
}

test('a cobv is payable until 23:59:59.999 in Brasília of its last day, on every reader', async () => {
  const cobv = await server.client.put(
    `/pix/v2/cobv/${TXID}`,
    {
      calendario: { dataDeVencimento: lastDay, validadeAposVencimento: 0 },
      devedor: { cpf: '52998224725', nome: 'Ana Souza' },
      valor: {
        original: '150.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 3, valorPerc: '1.00' },
      },
      chave: acme.key,
    },
    { auth: acme.bearer },
  );
  assert.is(cobv.status, 201, cobv.text);
  const overdue = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'brasilia-overdue',
      value: 9000,
      type: 'OVERDUE',
      dueDate: `${lastDay}T00:00:00Z`,
      daysAfterDueDate: 0,
      customer: { name: 'Ana Souza', taxID: '52998224725' },
    },
    { auth: platform.auth() },
  );
  assert.is(overdue.status, 200, overdue.text);
  assert.is(overdue.body.charge.dueDate, `${lastDay}T23:59:59.999-03:00`, 'the due date written as it is meant');
  assert.is(overdue.body.charge.expiresDate, `${lastDay}T23:59:59.999-03:00`);

  // 23:30 in Brasília of the last day: past midnight UTC, still the last day.
  await moveClockTo(`${addCalendarDays(lastDay, 1)}T02:30:00Z`);
  const read = await server.client.get('/api/v1/charge/brasilia-overdue', { auth: platform.auth() });
  assert.is(read.body.charge.status, 'ACTIVE');
  assert.is(read.body.charge.valueToPay, 9000, 'no fine on the due date itself');
  const asCobv = await server.client.get(`/pix/v2/cobv/${TXID}`, { auth: acme.bearer });
  assert.is(asCobv.body.status, 'ATIVA');
  const listed = await server.client.get('/api/v1/charge?status=ACTIVE', { auth: platform.auth() });
  assert.ok(
    listed.body.charges.some((c: { correlationID: string }) => c.correlationID === 'brasilia-overdue'),
    'listed as ACTIVE',
  );
  const page = await server.client.get(new URL(read.body.charge.paymentLinkUrl).pathname);
  assert.match(page.text, /Aguardando pagamento/);
  const [d, m, y] = [lastDay.slice(8, 10), lastDay.slice(5, 7), lastDay.slice(0, 4)];
  assert.ok(page.text.includes(`${d}/${m}/${y} às 23:59`), 'Pague até ... às 23:59');
  await server.services.jobs.runNow('charges.expiry');
  assert.equal(await expiredEvents(), [], 'the expiry job leaves them alone');
  const paid = await pay(asCobv.body.pixCopiaECola);
  assert.is(paid.status, 200, paid.text);
  assert.is((await server.client.get(`/pix/v2/cobv/${TXID}`, { auth: acme.bearer })).body.pix[0].valor, '150.00');

  // 00:00:01 in Brasília of the next day: no longer payable anywhere.
  await moveClockTo(`${addCalendarDays(lastDay, 1)}T03:00:01Z`);
  const late = await server.client.get('/api/v1/charge/brasilia-overdue', { auth: platform.auth() });
  assert.is(late.body.charge.status, 'EXPIRED');
  assert.equal(await expiredEvents(), ['brasilia-overdue']);
  const refused = await pay(late.body.charge.brCode);
  assert.is(refused.status, 400, refused.text);
  const latePage = await server.client.get(new URL(late.body.charge.paymentLinkUrl).pathname);
  assert.match(latePage.text, /Expirada/);
});

test('the payer page names the fine and interest that apply after the due date', async () => {
  const made = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'brasilia-terms',
      value: 20000,
      type: 'OVERDUE',
      daysForDueDate: 3,
      fines: { value: 200 },
      interests: { value: 100 },
      customer: { name: 'Ana Souza', taxID: '52998224725' },
    },
    { auth: platform.auth() },
  );
  assert.is(made.status, 200, made.text);
  const path = new URL(made.body.charge.paymentLinkUrl).pathname;
  const pt = await server.client.get(path);
  assert.ok(pt.text.includes('Após o vencimento: multa de 2,00% e juros de 1,00% ao dia (dias corridos).'), pt.text);
  const en = await server.client.get(path, { headers: { 'accept-language': 'en' } });
  assert.ok(
    en.text.includes('After the due date: a fine of 2.00% and interest of 1.00% a day (calendar days).'),
    en.text,
  );
});

test.run();
