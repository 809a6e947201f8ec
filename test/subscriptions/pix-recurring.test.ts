// Pix Automatico behind subscriptions: a PIX_RECURRING subscription is a recurrence (rec) of the
// Pix API that the sandbox payer approves by its QR code; each installment is a cobr of that
// recurrence, settled on the company's sandbox clock under the recurrence's retry policy. Also
// the subscription operations that go with it (list, cancel, value) and the installments
// (list, read, POST cobr, retry), their errors and their tenancy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cycleOf } from '../../src/recurrences/cobr.rules';
import { dueDateOf } from '../../src/subscriptions/installment-cobr';
import { scheduleDates } from '../../src/subscriptions/schedule';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceDays, recCompany, today, type RecCompany } from '../recurrences/support';

let server: TestServer;
let a: RecCompany;
let b: RecCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  a = await recCompany(server, { name: 'Fibra Norte Telecom' });
  b = await recCompany(server, { name: 'Academia Boreal' });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const customer = { name: 'Carlos Eduardo Lima', taxID: '41927360552', email: 'carlos.lima@email.com.br' };
let n = 0;

const api = {
  get: (path: string, c = a) => server.client.get(path, { auth: c.appID }),
  post: (path: string, body?: unknown, c = a) => server.client.post(path, body, { auth: c.appID }),
  put: (path: string, body?: unknown, c = a) => server.client.put(path, body, { auth: c.appID }),
  pix: (path: string, c = a) => server.client.get(path, { auth: c.bearer }),
};
const runSubscriptions = () => server.services.jobs.runNow('subscriptions.charges');
const runRecurrences = () => server.services.jobs.runNow('recurrences');
const id = (s: string) => encodeURIComponent(s);

// A PIX_RECURRING subscription whose first installment is today.
async function newPixSubscription(extra: Record<string, unknown> = {}, c = a) {
  const day = Number((await today(server, c)).slice(8));
  const res = await api.post(
    '/api/v1/subscriptions',
    {
      name: 'Plano Fibra 500 Mega',
      value: 11_990,
      correlationID: `fibra-${++n}`,
      customer,
      type: 'PIX_RECURRING',
      frequency: 'MONTHLY',
      dayGenerateCharge: day,
      comment: 'Fibra 500 Mega',
      pixRecurringOptions: { journey: 'ONLY_RECURRENCY', retryPolicy: 'THREE_RETRIES_7_DAYS' },
      ...extra,
    },
    c,
  );
  assert.is(res.status, 200, res.text);
  return res.body.subscription;
}

// The sandbox payer approves the recurrence by the QR code the subscription answered.
async function approve(sub: { pixRecurring: { recurrencyId: string; emv: string } }) {
  const res = await server.client.post(`/api/v1/sandbox/rec/${sub.pixRecurring.recurrencyId}/accept`, {
    pixCopiaECola: sub.pixRecurring.emv,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.tipoJornada, 'JORNADA_2');
}

async function installments(globalID: string, c = a) {
  const res = await api.get(`/api/v1/subscriptions/${id(globalID)}/installments`, c);
  assert.is(res.status, 200, res.text);
  return res.body.installments as Array<Record<string, any>>;
}

test('rules: the cycles of month ends, the due date of a late installment, the recurrence period', () => {
  // A recurrence starting on the 31st: February's cycle starts on its last day.
  assert.equal(
    ['2027-01-31', '2027-02-27', '2027-02-28', '2027-03-30', '2027-03-31'].map((d) =>
      cycleOf('MENSAL', '2027-01-31', d),
    ),
    [0, 0, 1, 1, 2],
  );
  assert.is(cycleOf('SEMANAL', '2027-01-04', '2027-01-18'), 2);
  const rec = { dataInicial: '2027-01-10', periodicidade: 'MENSAL' } as const;
  assert.is(dueDateOf(rec, '2027-02-10', '2027-02-01'), '2027-02-10', 'not yet due: its own date');
  assert.is(dueDateOf(rec, '2027-02-10', '2027-02-20'), '2027-02-20', 'late in its cycle: today');
  assert.is(dueDateOf(rec, '2027-02-10', '2027-03-10'), undefined, 'its cycle is over: missed');
  assert.equal(scheduleDates(new Date('2027-01-31T00:00:00Z'), 'MONTHLY', 31, 3), {
    first: '2027-01-31',
    last: '2027-03-31',
  });
  assert.equal(scheduleDates(new Date('2027-01-31T00:00:00Z'), 'WEEKLY', 31, undefined), { first: '2027-01-31' });
});

test('PIX_RECURRING: the rec on /pix/v2/rec, approved by its QR code, cycles settled as cobr on the clock', async () => {
  const day = await today(server, a);
  const sub = await newPixSubscription();
  const { recurrencyId, emv } = sub.pixRecurring;
  assert.match(recurrencyId, /^RR[0-9]{16}[a-zA-Z0-9]{11}$/, 'THREE_RETRIES_7_DAYS: a recurrence that allows retries');
  assert.equal(
    { ...sub.pixRecurring, emv: typeof emv },
    { recurrencyId, emv: 'string', journey: 'ONLY_RECURRENCY', retryPolicy: 'THREE_RETRIES_7_DAYS', status: 'CREATED' },
  );
  // The standard API sees the same recurrence, with the same QR code.
  const rec = await api.pix(`/pix/v2/rec/${recurrencyId}`);
  assert.is(rec.status, 200, rec.text);
  assert.equal(
    [rec.body.status, rec.body.valor, rec.body.politicaRetentativa, rec.body.calendario],
    ['CRIADA', { valorRec: '119.90' }, 'PERMITE_3R_7D', { dataInicial: day, periodicidade: 'MENSAL' }],
  );
  assert.equal(rec.body.vinculo, {
    objeto: 'Plano Fibra 500 Mega',
    devedor: { cpf: customer.taxID, nome: customer.name },
    contrato: sub.correlationID,
  });
  assert.is(rec.body.dadosQR.pixCopiaECola, emv);
  const listed = await api.pix(`/pix/v2/rec?inicio=${day}T00:00:00Z&fim=${day}T23:59:59Z&cpf=${customer.taxID}`);
  assert.ok(
    listed.body.recs.some((r: { idRec: string }) => r.idRec === recurrencyId),
    listed.text,
  );

  // Not approved yet: nothing is generated.
  await runSubscriptions();
  assert.equal(await installments(sub.globalID), []);
  await approve(sub);
  assert.is(
    (await api.get(`/api/v1/subscriptions/${id(sub.globalID)}`)).body.subscription.pixRecurring.status,
    'APPROVED',
  );

  await runSubscriptions();
  let [first] = await installments(sub.globalID);
  assert.equal(
    [first!.installmentNumber, first!.value, first!.status, first!.cobr.status, first!.cobr.recurrencyId],
    [1, 11_990, 'ACTIVE', 'ACTIVE', recurrencyId],
  );
  assert.equal(
    first!.cobr.tries.map((t: { tryStatus: string; finalityPurpose: string }) => [t.tryStatus, t.finalityPurpose]),
    [['SCHEDULED', 'AGND']],
  );
  const txid = first!.cobr.identifierId;
  const cobr = await api.pix(`/pix/v2/cobr/${txid}`);
  assert.equal(
    [
      cobr.body.status,
      cobr.body.idRec,
      cobr.body.valor,
      cobr.body.calendario.dataDeVencimento,
      cobr.body.infoAdicional,
    ],
    ['ATIVA', recurrencyId, { original: '119.90' }, day, 'Fibra 500 Mega'],
  );
  // Settled by the payer's PSP on its settlement date (the next business day at the latest).
  await advanceDays(server, 5, a);
  await runRecurrences();
  [first] = await installments(sub.globalID);
  assert.equal([first!.status, first!.cobr.status], ['COMPLETED', 'CONCLUDED']);
  const paid = await api.pix(`/pix/v2/cobr/${txid}`);
  assert.is(paid.body.status, 'CONCLUIDA');
  assert.is(first!.cobr.endToEndId, paid.body.pix[0].endToEndId);
  assert.is(first!.cobr.paymentDate, paid.body.pix[0].horario);
  const tx = await api.get(`/api/v1/transaction/${first!.cobr.endToEndId}`);
  assert.equal([tx.status, tx.body.transaction?.value], [200, 11_990], tx.text);

  // The next month: the second cycle's cobr, settled in turn.
  await advanceDays(server, 30, a);
  await runSubscriptions();
  await advanceDays(server, 5, a);
  await runRecurrences();
  const all = await installments(sub.globalID);
  assert.equal(
    all.map((i) => [i.installmentNumber, i.status]),
    [
      [2, 'COMPLETED'],
      [1, 'COMPLETED'],
    ],
  );
  const cobrs = await api.pix(`/pix/v2/cobr?inicio=${day}T00:00:00Z&fim=2100-01-01T00:00:00Z&idRec=${recurrencyId}`);
  assert.equal(
    cobrs.body.cobsr.map((c: { status: string }) => c.status),
    ['CONCLUIDA', 'CONCLUIDA'],
    cobrs.text,
  );
  // One installment read by its own id.
  const one = await api.get(`/api/v1/installments/${id(all[0]!.globalID)}`);
  assert.equal([one.status, one.body.installment], [200, all[0]]);
});

test('retry policy: a rejected attempt is retried with THREE_RETRIES_7_DAYS, ends the cobr with NON_PERMITED', async () => {
  // Above the sandbox payer's limit (R$ 10,000.00): every attempt is rejected (AM02).
  const retries = await newPixSubscription({ value: 1_500_000 });
  const once = await newPixSubscription({
    value: 1_500_000,
    pixRecurringOptions: { journey: 'ONLY_RECURRENCY', retryPolicy: 'NON_PERMITED' },
  });
  assert.match(once.pixRecurring.recurrencyId, /^RN/);
  await approve(retries);
  await approve(once);
  await runSubscriptions();
  await advanceDays(server, 5, a);
  await runRecurrences();

  const [failed] = await installments(retries.globalID);
  assert.equal(
    [failed!.status, failed!.cobr.status, failed!.cobr.rejectCode, failed!.cobr.tries[0].tryStatus],
    ['ACTIVE', 'FAILED_TRY', 'AM02', 'REJECTED'],
  );
  const retried = await api.post(`/api/v1/installments/${id(failed!.globalID)}/cobr/retry`, {});
  assert.is(retried.status, 200, retried.text);
  const tries = retried.body.installment.cobr.tries;
  assert.equal(
    tries.map((t: { tryStatus: string; finalityPurpose: string }) => [t.tryStatus, t.finalityPurpose]),
    [
      ['REJECTED', 'AGND'],
      ['REQUESTED', 'RIFL'],
    ],
  );
  const standard = await api.pix(`/pix/v2/cobr/${failed!.cobr.identifierId}`);
  assert.equal(standard.body.tentativas.at(-1).tipo, 'RIFL');
  // One pending attempt at a time; a retry cannot change the amount.
  const again = await api.post(`/api/v1/installments/${id(failed!.globalID)}/cobr/retry`);
  assert.is(again.status, 400, again.text);
  assert.match(again.body.details[0].message, /An attempt is pending/);
  const otherValue = await api.post(`/api/v1/installments/${id(failed!.globalID)}/cobr/retry`, { value: 100 });
  assert.equal(
    [otherValue.status, otherValue.body],
    [400, { error: 'A retry charges the amount of the recurring charge (1500000)' }],
  );

  const [rejected] = await installments(once.globalID);
  assert.equal([rejected!.status, rejected!.cobr.status], ['EXPIRED', 'REJECTED']);
  const refused = await api.post(`/api/v1/installments/${id(rejected!.globalID)}/cobr/retry`);
  assert.equal(
    [refused.status, refused.body.error],
    [400, 'The retry policy of the recurrence does not allow retries.'],
  );
  // The recurrence has a fixed amount: another value is the standard's refusal.
  const otherAmount = await api.post(`/api/v1/installments/${id(rejected!.globalID)}/cobr`, { value: 100 });
  assert.is(otherAmount.status, 400, otherAmount.text);
  assert.is(otherAmount.body.details[0].field, 'cobr.valor.original');
  // A new recurring charge for the installment (the rejected one no longer stands).
  const remade = await api.post(`/api/v1/installments/${id(rejected!.globalID)}/cobr`);
  assert.is(remade.status, 200, remade.text);
  assert.equal([remade.body.installment.status, remade.body.installment.cobr.status], ['ACTIVE', 'ACTIVE']);
  assert.is.not(remade.body.installment.cobr.identifierId, rejected!.cobr.identifierId);
  const twice = await api.post(`/api/v1/installments/${id(rejected!.globalID)}/cobr`);
  assert.equal([twice.status, twice.body], [400, { error: 'The installment already has a recurring charge (ATIVA)' }]);
});

test('cancel: the subscription and its recurrence (CANCELADA), its open cobr too; then refused', async () => {
  const sub = await newPixSubscription();
  await approve(sub);
  await runSubscriptions();
  const [inst] = await installments(sub.globalID);
  const cancelled = await api.put(`/api/v1/subscriptions/${id(sub.correlationID)}/cancel`);
  assert.is(cancelled.status, 200, cancelled.text);
  const s = cancelled.body.subscription;
  assert.equal([s.status, s.isActive, s.pixRecurring.status], ['CANCELED', false, 'CANCELED']);
  const rec = await api.pix(`/pix/v2/rec/${sub.pixRecurring.recurrencyId}`);
  assert.equal([rec.body.status, rec.body.encerramento.cancelamento.codigo], ['CANCELADA', 'SLCR']);
  assert.is((await api.pix(`/pix/v2/cobr/${inst!.cobr.identifierId}`)).body.status, 'CANCELADA');
  assert.is((await installments(sub.globalID))[0]!.status, 'CANCELED');
  const again = await api.put(`/api/v1/subscriptions/${id(sub.globalID)}/cancel`);
  assert.equal([again.status, again.body], [400, { error: 'Subscription is already CANCELED' }]);
  await advanceDays(server, 40, a);
  await runSubscriptions();
  assert.is((await installments(sub.globalID)).length, 1, 'no more installments');
  // A RECURRENT subscription is cancelled too (it has no recurrence).
  const plain = await api.post('/api/v1/subscriptions', { value: 990, customer });
  const done = await api.put(`/api/v1/subscriptions/${id(plain.body.subscription.globalID)}/cancel`);
  assert.equal(
    [done.status, done.body.subscription.status, done.body.subscription.pixRecurring],
    [200, 'CANCELED', undefined],
  );
});

test('a recurrence the payer never approved expires; the subscription ends EXPIRED', async () => {
  const sub = await newPixSubscription();
  await advanceDays(server, 2, a);
  await runSubscriptions();
  assert.is((await api.get(`/api/v1/subscriptions/${id(sub.globalID)}`)).body.subscription.status, 'ACTIVE');
  await runRecurrences();
  await runSubscriptions();
  const s = (await api.get(`/api/v1/subscriptions/${id(sub.globalID)}`)).body.subscription;
  assert.equal([s.status, s.isActive, s.pixRecurring.status], ['EXPIRED', false, 'EXPIRED']);
  assert.equal(await installments(sub.globalID), []);
});

test('change of value: only with minimumValue, never below it; the next installments use it', async () => {
  const fixed = await newPixSubscription();
  const refused = await api.put(`/api/v1/subscriptions/${id(fixed.globalID)}/value`, { value: 4_490 });
  assert.equal(refused.status, 400);
  assert.match(refused.body.error, /fixed by its recurrence/);

  const flexible = await newPixSubscription({
    value: 3_990,
    pixRecurringOptions: { retryPolicy: 'NON_PERMITED', minimumValue: 1_000 },
  });
  assert.equal([flexible.pixRecurring.minimumValue, flexible.pixRecurring.journey], [1_000, 'ONLY_RECURRENCY']);
  const rec = await api.pix(`/pix/v2/rec/${flexible.pixRecurring.recurrencyId}`);
  assert.equal(rec.body.valor, { valorMinimoRecebedor: '10.00' });
  const below = await api.put(`/api/v1/subscriptions/${id(flexible.globalID)}/value`, { value: 999 });
  assert.equal(
    [below.status, below.body],
    [400, { error: 'value cannot be below pixRecurringOptions.minimumValue (1000)' }],
  );
  const changed = await api.put(`/api/v1/subscriptions/${id(flexible.globalID)}/value`, { value: 4_490 });
  assert.equal([changed.status, changed.body.subscription.value], [200, 4_490], changed.text);
  await approve(flexible);
  await runSubscriptions();
  const [inst] = await installments(flexible.globalID);
  assert.equal([inst!.value, inst!.cobr.value], [4_490, 4_490]);
  assert.equal((await api.pix(`/pix/v2/cobr/${inst!.cobr.identifierId}`)).body.valor, { original: '44.90' });
  // A RECURRENT subscription's value changes freely.
  const plain = await api.post('/api/v1/subscriptions', { value: 990, customer });
  const put = await api.put(`/api/v1/subscriptions/${id(plain.body.subscription.correlationID)}/value`, {
    value: 1_290,
  });
  assert.equal([put.status, put.body.subscription.value], [200, 1_290]);
  const bad = await api.put(`/api/v1/subscriptions/${id(plain.body.subscription.globalID)}/value`, { value: 0 });
  assert.is(bad.status, 400);
});

test('PIX_RECURRING refuses what Pix Automatico cannot do, in the platform format', async () => {
  const refuse = async (extra: Record<string, unknown>, field: string) => {
    const res = await api.post('/api/v1/subscriptions', {
      value: 11_990,
      customer,
      type: 'PIX_RECURRING',
      ...extra,
    });
    assert.is(res.status, 400, res.text);
    assert.is(res.body.error, 'Validation error');
    assert.ok(
      res.body.details.some((d: { field: string }) => d.field === field),
      res.text,
    );
  };
  await refuse({ frequency: 'BIMONTHLY' }, 'frequency');
  await refuse({ pixRecurringOptions: { journey: 'PAYMENT_ON_APPROVAL' } }, 'pixRecurringOptions.journey');
  await refuse({ pixRecurringOptions: { minimumValue: 20_000 } }, 'pixRecurringOptions.minimumValue');
  await refuse({ fines: { value: 200 } }, 'fines');
  // QUARTERLY (the reference's name) is TRIMONTHLY: TRIMESTRAL in the standard.
  const quarterly = await newPixSubscription({ frequency: 'QUARTERLY' });
  assert.is(quarterly.frequency, 'TRIMONTHLY');
  const rec = await api.pix(`/pix/v2/rec/${quarterly.pixRecurring.recurrencyId}`);
  assert.is(rec.body.calendario.periodicidade, 'TRIMESTRAL');
});

test('lists: subscriptions with their recurrence, RECURRENT installments name their charge', async () => {
  const day = Number((await today(server, b)).slice(8));
  const plain = await api.post('/api/v1/subscriptions', { value: 2_500, customer, dayGenerateCharge: day }, b);
  const pix = await newPixSubscription({}, b);
  const list = await api.get('/api/v1/subscriptions?limit=1', b);
  assert.is(list.status, 200, list.text);
  assert.equal(list.body.pageInfo, { skip: 0, limit: 1, totalCount: 2, hasPreviousPage: false, hasNextPage: true });
  assert.equal(list.body.subscriptions, [pix], 'newest first, with pixRecurring');
  const second = await api.get('/api/v1/subscriptions?skip=1', b);
  assert.equal(second.body.subscriptions, [plain.body.subscription]);
  await runSubscriptions();
  const [inst] = await installments(plain.body.subscription.globalID, b);
  assert.equal([inst!.status, inst!.value, inst!.cobr], ['ACTIVE', 2_500, undefined]);
  assert.match(inst!.correlationID, /^subscription-[0-9a-f-]{36}-1$/);
  const charge = await api.get(`/api/v1/charge/${inst!.correlationID}`, b);
  assert.equal([charge.status, charge.body.charge.value], [200, 2_500]);
  const notPix = await api.post(`/api/v1/installments/${id(inst!.globalID)}/cobr`, {}, b);
  assert.equal(
    [notPix.status, notPix.body],
    [400, { error: 'Only installments of a PIX_RECURRING subscription have recurring charges' }],
  );
});

test("tenancy: another company's subscription or installment is a 404, as a missing one", async () => {
  const sub = await newPixSubscription();
  await approve(sub);
  await runSubscriptions();
  const [inst] = await installments(sub.globalID);
  const s = id(sub.globalID);
  const i = id(inst!.globalID);
  const calls = [
    () => api.get(`/api/v1/subscriptions/${s}`, b),
    () => api.put(`/api/v1/subscriptions/${s}/cancel`, undefined, b),
    () => api.put(`/api/v1/subscriptions/${s}/value`, { value: 100 }, b),
    () => api.get(`/api/v1/subscriptions/${s}/installments`, b),
    () => api.get(`/api/v1/installments/${i}`, b),
    () => api.post(`/api/v1/installments/${i}/cobr`, {}, b),
    () => api.post(`/api/v1/installments/${i}/cobr/retry`, {}, b),
  ];
  const expected = [
    'Subscription not found',
    'Subscription not found',
    'Subscription not found',
    'Subscription not found',
    'Installment not found',
    'Installment not found',
    'Installment not found',
  ];
  for (const [k, call] of calls.entries()) {
    const res = await call();
    assert.equal([res.status, res.body], [404, { error: expected[k] }], res.text);
  }
  assert.is((await api.get(`/api/v1/subscriptions/${s}`)).body.subscription.status, 'ACTIVE', 'untouched');
  assert.is((await api.get('/api/v1/subscriptions', b)).body.subscriptions.length, 2, "only b's own");
});

test.run();
