// Helpers of the pix-in tests: charges made with the charges area's record functions (as
// their endpoints would), and their BR Codes.
import { randomUUID } from 'node:crypto';
import type { PlatformSettings, StoredCobBody, StoredCobvBody } from '../../src/db/documents/charge-body';
import { brCodeOf } from '../../src/charges/charge-model';
import { createChargeRecord } from '../../src/charges/charge-records';
import { findLocationById } from '../../src/charges/locations.repository';
import { recebedorOf } from '../../src/charges/standard/standard-bodies';
import type { Kysely } from 'kysely';
import type { Charge, Database } from '../../src/db/schema';
import { findReceivingKey } from '../../src/keys/keys.repository';
import { newTxid } from '../../src/lib/ids';
import { cents, formatDecimalAmount } from '../../src/lib/money';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

// What most pix-in files start from: a server without background jobs (the tests run them),
// one company and its Pix API bearer.
export async function startPixinServer(
  companyName = 'Aurora Moda',
): Promise<{ server: TestServer; acme: TestCompany; bearer: string }> {
  const server = await startTestServer({}, { backgroundJobs: false });
  const acme = await createCompany(server.client, { name: companyName });
  return { server, acme, bearer: await pixToken(server.client, acme) };
}

// Audits the ledger, then closes the server.
export async function closeAudited(server: TestServer): Promise<void> {
  await auditLedger(server.services.db);
  await server.close();
}

export interface MadeCharge {
  charge: Charge;
  brCode: string;
  locationUrl: string;
}

export interface CobOptions {
  value: number;
  correlationId?: string;
  expiresIn?: number;
  valor?: Partial<StoredCobBody['valor']>;
  devedor?: StoredCobBody['devedor'];
  platform?: PlatformSettings;
}

// The company's default key with its account, and the company (what a new charge needs).
async function receivingOf(server: TestServer, trx: Kysely<Database>, company: TestCompany) {
  const key = (await findReceivingKey(trx, company.companyId, company.pixKey))!;
  return { key, company: await server.services.companies.get(company.companyId, trx) };
}

export async function makeCob(server: TestServer, company: TestCompany, o: CobOptions): Promise<MadeCharge> {
  const { db, clock, config } = server.services;
  const made = await db.transaction().execute(async (trx) => {
    const now = await clock.now(company.companyId, trx);
    const expiracao = o.expiresIn ?? 3600;
    const receiving = await receivingOf(server, trx, company);
    return createChargeRecord(
      trx,
      {
        companyId: company.companyId,
        ...receiving,
        kind: 'cob',
        platformType: 'DYNAMIC',
        txid: newTxid(),
        correlationId: o.correlationId ?? null,
        body: {
          calendario: { criacao: now.toISOString(), expiracao },
          ...(o.devedor ? { devedor: o.devedor } : {}),
          valor: { original: formatDecimalAmount(cents(o.value)), ...(o.valor ?? {}) },
          chave: company.pixKey,
        },
        platform: o.platform ?? {},
        value: o.value,
        customerId: null,
        expiresAt: new Date(now.getTime() + expiracao * 1000),
        dueDate: null,
        validityAfterDue: null,
        paymentLinkId: randomUUID(),
        now,
      },
      config.publicUrl,
    );
  });
  return withCode(server, made.charge);
}

export interface CobvOptions {
  value: number;
  dueDate: string;
  validity?: number;
  valor?: Partial<StoredCobvBody['valor']>;
  correlationId?: string;
}

export async function makeCobv(server: TestServer, company: TestCompany, o: CobvOptions): Promise<MadeCharge> {
  const { db, clock, config } = server.services;
  const made = await db.transaction().execute(async (trx) => {
    const now = await clock.now(company.companyId, trx);
    const receiving = await receivingOf(server, trx, company);
    return createChargeRecord(
      trx,
      {
        companyId: company.companyId,
        ...receiving,
        kind: 'cobv',
        platformType: 'OVERDUE',
        txid: newTxid(),
        correlationId: o.correlationId ?? null,
        body: {
          calendario: {
            criacao: now.toISOString(),
            dataDeVencimento: o.dueDate,
            validadeAposVencimento: o.validity ?? 30,
          },
          devedor: { cpf: '52998224725', nome: 'Mariana Alves Costa' },
          recebedor: recebedorOf(receiving.company),
          valor: { original: formatDecimalAmount(cents(o.value)), ...(o.valor ?? {}) },
          chave: company.pixKey,
        },
        platform: {},
        value: o.value,
        customerId: null,
        expiresAt: null,
        dueDate: o.dueDate,
        validityAfterDue: o.validity ?? 30,
        paymentLinkId: randomUUID(),
        now,
      },
      config.publicUrl,
    );
  });
  return withCode(server, made.charge);
}

async function withCode(server: TestServer, charge: Charge): Promise<MadeCharge> {
  const { db, config } = server.services;
  const location = (await findLocationById(db, Number(charge.location_id)))!;
  const company = await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', charge.company_id)
    .executeTakeFirstOrThrow();
  const brCode = brCodeOf(config.publicUrl, charge, location, company);
  const locationUrl =
    config.publicUrl.replace(/^https?:\/\//, '') +
    (location.kind === 'cobv' ? '/qr/v2/cobv/' : '/qr/v2/') +
    location.token;
  return { charge, brCode, locationUrl };
}

export async function chargeRow(server: TestServer, id: string): Promise<Charge> {
  return server.services.db.selectFrom('charges').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
