// Contract scenarios of the recurrence family (locrec, rec, solicrec, cobr, the recurrence
// payload and the sandbox's payer answers). The examples' dates are moved past today (same
// distances), their locations, recurrences and txids replaced by fresh ones of the company.
import { addCalendarDays, daysBetween } from '../../../src/lib/business-days';
import { findDefaultKey } from '../../../src/keys/keys.repository';
import { newTxid } from '../../../src/lib/ids';
import type { ContractEnv, Scenario } from './types';

// The examples' recurrences were made on this day.
const EXAMPLES_DAY = '2026-03-05';

async function today(env: ContractEnv): Promise<string> {
  const res = await env.client.get('/api/v1/sandbox/clock');
  return res.status === 200 ? String(res.body.now).slice(0, 10) : new Date().toISOString().slice(0, 10);
}

async function shifted(env: ContractEnv, example: unknown): Promise<Record<string, any>> {
  const shift = daysBetween(EXAMPLES_DAY, await today(env)) + 1;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return addCalendarDays(v, shift);
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v))
      return `${addCalendarDays(v.slice(0, 10), shift)}${v.slice(10)}`;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(example ?? {}) as Record<string, any>;
}

async function call(env: ContractEnv, method: string, path: string, body?: unknown, open = false) {
  const res = await env.client.request(method, path, {
    ...(open ? {} : { auth: env.bearer }),
    ...(body === undefined ? {} : { body }),
  });
  if (res.status >= 300) throw new Error(`recurrences scenario ${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function newLocRec(env: ContractEnv): Promise<{ id: number; location: string }> {
  return call(env, 'POST', '/pix/v2/locrec');
}

// An immediate or due-date charge of the company (its default key), for journeys 3 and 4.
async function newCharge(env: ContractEnv, kind: 'cob' | 'cobv', txid: string): Promise<Record<string, any>> {
  const key = (await findDefaultKey(env.db!, env.company.companyId))!;
  const calendario = kind === 'cob' ? { expiracao: 86400 } : await shifted(env, { dataDeVencimento: '2026-03-15' });
  const devedor = { cpf: '41927360552', nome: 'Carlos Eduardo Lima' };
  return call(env, 'PUT', `/pix/v2/${kind}/${txid}`, {
    calendario,
    devedor,
    valor: { original: '119.90' },
    chave: key.key,
  });
}

// A recurrence like the journey-3 example (fixed 119.90, PERMITE_3R_7D), with a fresh location
// and a fresh journey txid (each immediate charge of journey 3 is a charge of its own).
async function newRec(
  env: ContractEnv,
  { approved = false, journeyTxid = true }: { approved?: boolean; journeyTxid?: boolean } = {},
): Promise<Record<string, any>> {
  const body = await shifted(env, {
    vinculo: {
      objeto: 'Plano Fibra 500 Mega',
      devedor: { cpf: '41927360552', nome: 'Carlos Eduardo Lima' },
      contrato: 'FN-2026-004817',
    },
    calendario: { dataInicial: '2026-03-05', dataFinal: '2027-03-10', periodicidade: 'MENSAL' },
    valor: { valorRec: '119.90' },
    politicaRetentativa: 'PERMITE_3R_7D',
    ativacao: { dadosJornada: { txid: 'ucWV9lUdQn577OFd27f3IP4W3z' } },
  });
  body.loc = (await newLocRec(env)).id;
  // Without dadosJornada for journey 4: a recurrence that names its cob is on journey 3.
  if (journeyTxid) body.ativacao = { dadosJornada: { txid: newTxid() } };
  else delete body.ativacao;
  const rec = await call(env, 'POST', '/pix/v2/rec', body);
  if (approved) await call(env, 'POST', `/api/v1/sandbox/rec/${rec.idRec}/accept`, undefined, true);
  return rec;
}

async function cobrBody(env: ContractEnv, example: unknown, idRec: string): Promise<Record<string, any>> {
  const body = await shifted(env, example);
  const account = await env
    .db!.selectFrom('bank_accounts')
    .select(['branch', 'account_number'])
    .where('id', '=', env.company.accountId)
    .executeTakeFirstOrThrow();
  return { ...body, idRec, recebedor: { ...body.recebedor, agencia: account.branch, conta: account.account_number } };
}

const COBR_EXAMPLE = {
  idRec: 'x',
  infoAdicional: 'Fatura de abril de 2026 - Plano Fibra 500 Mega',
  calendario: { dataDeVencimento: '2026-03-15' },
  valor: { original: '119.90' },
  ajusteDiaUtil: true,
  recebedor: { agencia: '0001', conta: '1048577', tipoConta: 'CORRENTE' },
};

async function newCobr(env: ContractEnv): Promise<Record<string, any>> {
  const rec = await newRec(env, { approved: true });
  return call(env, 'POST', '/pix/v2/cobr', await cobrBody(env, COBR_EXAMPLE, rec.idRec));
}

export const recurrenceScenarios: Record<string, Scenario> = {
  async getLocRec(env) {
    return { params: { id: String((await newLocRec(env)).id) } };
  },
  async unlinkLocRecIdRec(env) {
    return { params: { id: String((await newRec(env)).loc.id) } };
  },
  async createRec(env, example) {
    const body = await shifted(env, example);
    if (body.loc !== undefined) body.loc = (await newLocRec(env)).id;
    return { body };
  },
  // A recurrence waiting for the payer named by a confirmation request (its PSP is known).
  async getRec(env) {
    return recurrenceScenarios.getSolicRec!(env, undefined).then(async ({ params }) => {
      const solic = await call(env, 'GET', `/pix/v2/solicrec/${params!.idSolicRec}`);
      return { params: { idRec: solic.idRec } };
    });
  },
  async reviseRec(env, example) {
    const body = await shifted(env, example);
    if (body.loc !== undefined) body.loc = (await newLocRec(env)).id;
    return { params: { idRec: (await newRec(env)).idRec }, body };
  },
  async createSolicRec(env, example) {
    const body = await shifted(env, example);
    return { body: { ...body, idRec: (await newRec(env)).idRec } };
  },
  async getSolicRec(env) {
    const body = await shifted(env, {
      calendario: { dataExpiracaoSolicitacao: '2026-03-19T23:59:59Z' },
      destinatario: { agencia: '0341', conta: '458721', ispbParticipante: '60701190', cpf: '41927360552' },
    });
    const s = await call(env, 'POST', '/pix/v2/solicrec', { ...body, idRec: (await newRec(env)).idRec });
    return { params: { idSolicRec: s.idSolicRec } };
  },
  async reviseSolicRec(env) {
    return recurrenceScenarios.getSolicRec!(env, undefined);
  },
  async putCobr(env, example) {
    const rec = await newRec(env, { approved: true });
    return { params: { txid: newTxid() }, body: await cobrBody(env, example, rec.idRec) };
  },
  async createCobr(env, example) {
    const rec = await newRec(env, { approved: true });
    return { body: await cobrBody(env, example, rec.idRec) };
  },
  async getCobr(env) {
    return { params: { txid: (await newCobr(env)).txid } };
  },
  async reviseCobr(env) {
    return { params: { txid: (await newCobr(env)).txid } };
  },
  // A retry needs a failed attempt: the charge's first attempt is marked rejected in the
  // database (the job would do it on the settlement date, which the suite does not reach).
  async retryCobr(env) {
    const cobr = await newCobr(env);
    const row = await env
      .db!.selectFrom('recurring_charges')
      .select(['id', 'attempts', 'settlement_date'])
      .where('company_id', '=', env.company.companyId)
      .where('txid', '=', cobr.txid)
      .executeTakeFirstOrThrow();
    const attempts = row.attempts.map((a) => ({
      ...a,
      status: 'REJEITADA',
      atualizacao: [...a.atualizacao, { status: 'REJEITADA', data: new Date().toISOString() }],
    }));
    await env
      .db!.updateTable('recurring_charges')
      .set({ attempts: JSON.stringify(attempts), next_attempt_date: null })
      .where('id', '=', row.id)
      .execute();
    return { params: { txid: cobr.txid, data: addCalendarDays(row.settlement_date, 1) } };
  },
  async getRecPayload(env) {
    return {
      params: {
        recUrlAccessToken: String((await newRec(env)).loc.location)
          .split('/')
          .pop()!,
      },
    };
  },
  // Each journey's example gets a recurrence that fits it: a confirmation request (journey 1)
  // or the composite QR code GET /rec answers, of the recurrence alone (2), with an immediate
  // charge that is its dadosJornada.txid (3) or with a due-date charge (4).
  async sandboxAcceptRec(env, example) {
    const code = (example as { pixCopiaECola?: string } | undefined)?.pixCopiaECola;
    const rec = await newRec(env, { journeyTxid: !code?.includes('/qr/v2/cobv/') });
    if (code === undefined) {
      const body = await shifted(env, {
        calendario: { dataExpiracaoSolicitacao: '2026-03-19T23:59:59Z' },
        destinatario: { agencia: '0341', conta: '458721', ispbParticipante: '60701190', cpf: '41927360552' },
      });
      await call(env, 'POST', '/pix/v2/solicrec', { ...body, idRec: rec.idRec });
      return { params: { idRec: rec.idRec }, body: example };
    }
    const journey = !/26\d\d0014br\.gov\.bcb\.pix25/.test(code) ? 2 : code.includes('/qr/v2/cobv/') ? 4 : 3;
    let query = '';
    if (journey === 3) query = `?txid=${(await newCharge(env, 'cob', rec.ativacao.dadosJornada.txid)).txid}`;
    if (journey === 4) query = `?txid=${(await newCharge(env, 'cobv', newTxid())).txid}`;
    const read = await call(env, 'GET', `/pix/v2/rec/${rec.idRec}${query}`);
    return { params: { idRec: rec.idRec }, body: { pixCopiaECola: read.dadosQR.pixCopiaECola } };
  },
  async sandboxRejectRec(env) {
    return { params: { idRec: (await newRec(env)).idRec } };
  },
};
