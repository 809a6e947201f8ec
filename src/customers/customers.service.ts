// Customers of a company: create, read by correlationID or tax id, list, update, and the
// find-or-create used when a charge is created with a customer.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { CustomerRow, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import type { Clock } from '../db/clock';
import { newPublicId } from '../lib/ids';
import { normalizeTaxId } from '../lib/taxid';
import * as repo from './customers.repository';
import {
  checkCustomerFields,
  customerView,
  mergeAddress,
  withCountry,
  type CustomerFields,
  type CustomerView,
} from './customers.rules';

export type { CustomerView } from './customers.rules';

type CustomerCreateInput = components['schemas']['CustomerCreatePayload'];
type CustomerUpdateInput = components['schemas']['CustomerUpdatePayload'];
type ChargeCustomerInput = components['schemas']['ChargeCustomerInput'];

const DUPLICATE_CORRELATION_ID = 'Customer with this correlationID already exists';
const DUPLICATE_TAX_ID = 'Customer with this taxID already exists';
const NOT_FOUND = 'Customer not found';

export class CustomersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, input: CustomerCreateInput): Promise<CustomerView> {
    const fields = checkCustomerFields(input, '');
    return this.db.transaction().execute(async (trx) => {
      const now = await this.clock.now(principal.companyId, trx);
      const row = await insertNew(trx, principal.companyId, fields, now);
      if (row) return customerView(row);
      // Nothing written: say which unique field is taken.
      if (
        fields.correlationId &&
        (await repo.findCustomerByCorrelationId(trx, principal.companyId, fields.correlationId))
      ) {
        throw errors.badRequest(DUPLICATE_CORRELATION_ID, [
          { field: 'correlationID', in: 'body', message: 'is already used by another customer' },
        ]);
      }
      throw errors.badRequest(DUPLICATE_TAX_ID, [
        { field: 'taxID', in: 'body', message: 'is already used by another customer' },
      ]);
    });
  }

  // id: the customer's correlationID, or its tax id (masked or not).
  async get(principal: Principal, id: string): Promise<CustomerView> {
    const row = await findCustomerByCorrelationIdOrTaxId(this.db, principal.companyId, id);
    if (!row) throw errors.notFound(NOT_FOUND);
    return customerView(row);
  }

  async list(principal: Principal, page: Page): Promise<{ customers: CustomerView[]; total: number }> {
    const { rows, total } = await repo.listCustomers(this.db, principal.companyId, page.skip, page.limit);
    return { customers: rows.map(customerView), total };
  }

  // id: the customer's correlationID. Only the fields sent change; an address is merged
  // over the stored one.
  async update(principal: Principal, id: string, input: CustomerUpdateInput): Promise<CustomerView> {
    const fields = checkCustomerFields(input, '');
    const updating = this.db.transaction().execute(async (trx) => {
      const found = await repo.findCustomerByCorrelationId(trx, principal.companyId, id);
      const current = found && (await repo.lockCustomerById(trx, principal.companyId, found.id));
      if (!current) throw errors.notFound(NOT_FOUND);
      if (fields.taxId !== undefined && fields.taxId !== current.tax_id) {
        const holder = await repo.findCustomerByTaxId(trx, principal.companyId, fields.taxId);
        if (holder)
          throw errors.badRequest(DUPLICATE_TAX_ID, [
            { field: 'taxID', in: 'body', message: 'is already used by another customer' },
          ]);
      }
      const updated = await repo.updateCustomer(trx, principal.companyId, current.id, {
        ...(fields.name !== undefined ? { name: fields.name } : {}),
        ...(fields.taxId !== undefined ? { tax_id: fields.taxId } : {}),
        ...(fields.email !== undefined ? { email: fields.email } : {}),
        ...(fields.phone !== undefined ? { phone: fields.phone } : {}),
        ...(fields.address !== undefined
          ? { address: JSON.stringify(mergeAddress(current.address, fields.address)) }
          : {}),
        updated_at: await this.clock.now(principal.companyId, trx),
      });
      return customerView(updated);
    });
    // A concurrent request took the tax id between the check and the write.
    return updating.catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505')
        throw errors.badRequest(DUPLICATE_TAX_ID, [
          { field: 'taxID', in: 'body', message: 'is already used by another customer' },
        ]);
      throw error;
    });
  }
}

// Called inside the charge's transaction when a charge is created with a customer (name with
// taxID, email or phone). Finds the company's customer by taxID, else by email, else by
// phone (a customer found by e-mail or phone whose tax id differs from the one sent is not
// the same person), else by the correlationID sent; fills the fields it is missing; or
// creates it. Invalid fields are a 400 naming `customer.<field>`.
export async function upsertChargeCustomer(
  trx: Kysely<Database>,
  companyId: string,
  input: ChargeCustomerInput,
  now: Date,
): Promise<{ id: string; view: CustomerView }> {
  const fields = checkCustomerFields(input, 'customer.');
  if (fields.name === undefined)
    throw errors.validation([{ field: 'customer.name', in: 'body', message: 'is required' }], 'Invalid customer');
  if (fields.taxId === undefined && fields.email === undefined && fields.phone === undefined) {
    throw errors.validation(
      [{ field: 'customer', in: 'body', message: 'must contain name and taxID, name and email, or name and phone' }],
      'Invalid customer',
    );
  }
  // Twice at most: a concurrent charge may create the same customer between find and insert.
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await findChargeCustomer(trx, companyId, fields);
    if (found) {
      const row = await fillMissing(trx, companyId, found, fields, now);
      return { id: row.id, view: customerView(row) };
    }
    const created = await insertNew(trx, companyId, fields, now);
    if (created) return { id: created.id, view: customerView(created) };
  }
  throw errors.badRequest(DUPLICATE_CORRELATION_ID, [
    { field: 'customer.correlationID', in: 'body', message: 'is already used by another customer' },
  ]);
}

// By tax id, else the oldest by e-mail, else by phone, else by correlationID: the candidates of
// all four read at once, then chosen in that order.
async function findChargeCustomer(
  trx: Kysely<Database>,
  companyId: string,
  fields: CustomerFields,
): Promise<CustomerRow | undefined> {
  const candidates = await repo.findCustomerCandidates(trx, companyId, fields);
  if (fields.taxId !== undefined) {
    const byTaxId = candidates.find((c) => c.tax_id === fields.taxId);
    if (byTaxId) return byTaxId;
  }
  // Found by another field: the same person unless it has a different tax id.
  const samePerson = (row: CustomerRow | undefined) =>
    row && (row.tax_id === null || fields.taxId === undefined || row.tax_id === fields.taxId) ? row : undefined;
  const email = fields.email?.toLowerCase();
  return (
    (email !== undefined ? samePerson(candidates.find((c) => c.email?.toLowerCase() === email)) : undefined) ??
    (fields.phone !== undefined ? samePerson(candidates.find((c) => c.phone === fields.phone)) : undefined) ??
    (fields.correlationId !== undefined
      ? samePerson(candidates.find((c) => c.correlation_id === fields.correlationId))
      : undefined)
  );
}

// Sets the fields the stored customer lacks (never overwrites what it has).
async function fillMissing(
  trx: Kysely<Database>,
  companyId: string,
  row: CustomerRow,
  fields: CustomerFields,
  now: Date,
): Promise<CustomerRow> {
  const changes = {
    ...(row.tax_id === null && fields.taxId !== undefined ? { tax_id: fields.taxId } : {}),
    ...(row.email === null && fields.email !== undefined ? { email: fields.email } : {}),
    ...(row.phone === null && fields.phone !== undefined ? { phone: fields.phone } : {}),
    ...(row.address === null && fields.address !== undefined
      ? { address: JSON.stringify(withCountry(fields.address)) }
      : {}),
  };
  if (Object.keys(changes).length === 0) return row;
  return repo.updateCustomer(trx, companyId, row.id, { ...changes, updated_at: now });
}

// Inserts a customer (correlationID generated when absent); undefined when its correlationID
// or tax id is already used by another customer of the company.
async function insertNew(
  trx: Kysely<Database>,
  companyId: string,
  fields: CustomerFields,
  now: Date,
): Promise<CustomerRow | undefined> {
  return repo.insertCustomerIfFree(trx, {
    id: newPublicId('cus'),
    company_id: companyId,
    correlation_id: fields.correlationId ?? randomUUID(),
    name: fields.name!,
    tax_id: fields.taxId ?? null,
    email: fields.email ?? null,
    phone: fields.phone ?? null,
    address: fields.address !== undefined ? JSON.stringify(withCountry(fields.address)) : null,
    created_at: now,
    updated_at: now,
  });
}

async function findCustomerByCorrelationIdOrTaxId(
  db: Kysely<Database>,
  companyId: string,
  id: string,
): Promise<CustomerRow | undefined> {
  const byCorrelationId = await repo.findCustomerByCorrelationId(db, companyId, id);
  if (byCorrelationId) return byCorrelationId;
  const taxId = normalizeTaxId(id);
  return taxId.ok ? repo.findCustomerByTaxId(db, companyId, taxId.value.taxId) : undefined;
}
