// The platform API's charge object, derived from the one charge record: the standard's body
// (value, message, extra information, debtor) plus the platform-only options.
import type { Kysely } from 'kysely';
import type { Charge, Company, Database, Location } from '../../db/schema';
import { addCalendarDays, todayUtc } from '../../lib/business-days';
import {
  brCodeOf,
  cobvAmountsOn,
  cobvLastDay,
  globalIdOf,
  paymentLinkUrlOf,
  platformStatusOf,
  qrCodeImageUrlOf,
} from '../charge-model';
import { findCompanyRow, findLocationById, locationsById } from '../charges.repository';

export interface ChargeViewContext {
  company: Pick<Company, 'name' | 'trade_name'>;
  location: Location | undefined;
}

interface Devedor {
  cpf?: string;
  cnpj?: string;
  nome?: string;
  email?: string;
}

interface StandardBody {
  calendario?: { expiracao?: number };
  devedor?: Devedor;
  solicitacaoPagador?: string;
  infoAdicionais?: Array<{ nome: string; valor: string }>;
}

export interface PlatformOptions {
  comment?: string;
  customer?: Record<string, unknown>;
  ensureSameTaxID?: boolean;
  fixedLocation?: boolean;
  paymentLinkID?: string;
  daysForDueDate?: number;
  daysAfterDueDate?: number;
  interests?: { value: number };
  fines?: { value: number };
  discount?: { modality: string; value?: number; discountFixedDate?: Array<{ daysActive: number; value: number }> };
  enableCashbackPercentage?: boolean;
  enableCashbackExclusivePercentage?: boolean;
  subaccount?: string;
  splits?: Array<{ pixKey: string; value: number; splitType?: string }>;
  subscription?: string;
}

const endOfDay = (date: string) => `${date}T23:59:59.000Z`;

// The customer of a charge: the one the platform API stored, else the standard's debtor.
function customerOf(platform: PlatformOptions, devedor: Devedor | undefined): Record<string, unknown> | undefined {
  if (platform.customer) return platform.customer;
  if (!devedor?.nome) return undefined;
  const taxID = devedor.cpf
    ? { taxID: devedor.cpf, type: 'BR:CPF' }
    : devedor.cnpj
      ? { taxID: devedor.cnpj, type: 'BR:CNPJ' }
      : undefined;
  return { name: devedor.nome, ...(devedor.email ? { email: devedor.email } : {}), ...(taxID ? { taxID } : {}) };
}

export async function chargeViewContext(db: Kysely<Database>, charge: Charge): Promise<ChargeViewContext> {
  const [company, location] = await Promise.all([
    findCompanyRow(db, charge.company_id),
    charge.location_id === null ? Promise.resolve(undefined) : findLocationById(db, Number(charge.location_id)),
  ]);
  if (!company) throw new Error(`company ${charge.company_id} of charge ${charge.id} not found`);
  return { company, location };
}

// The contexts of a page of charges in two queries per kind of row (not two per charge).
export async function chargeViewContexts(
  db: Kysely<Database>,
  charges: Charge[],
): Promise<(charge: Charge) => ChargeViewContext> {
  const companies = new Map<string, Company>();
  for (const id of new Set(charges.map((c) => c.company_id))) {
    const company = await findCompanyRow(db, id);
    if (company) companies.set(id, company);
  }
  const locations = await locationsById(
    db,
    charges.flatMap((c) => (c.location_id === null ? [] : [Number(c.location_id)])),
  );
  return (charge) => ({
    company: companies.get(charge.company_id)!,
    location: charge.location_id === null ? undefined : locations.get(Number(charge.location_id)),
  });
}

// Builds the view from a charge and what it needs around it (no database access).
export function buildPlatformChargeView(
  charge: Charge,
  ctx: ChargeViewContext,
  publicUrl: string,
  now: Date,
): Record<string, unknown> {
  const body = charge.body as StandardBody;
  const platform = charge.platform as PlatformOptions;
  const brCode = ctx.location ? brCodeOf(publicUrl, charge, ctx.location, ctx.company) : '';
  const qrCodeImage = qrCodeImageUrlOf(publicUrl, charge.payment_link_id);
  const comment = body.solicitacaoPagador ?? platform.comment;
  const customer = customerOf(platform, body.devedor);

  let timing: Record<string, unknown>;
  let amounts: Record<string, number>;
  if (charge.kind === 'cob') {
    timing = { expiresIn: body.calendario?.expiracao, expiresDate: charge.expires_at!.toISOString() };
    amounts = { discount: 0, valueWithDiscount: charge.value };
  } else {
    const lastDay = cobvLastDay(charge);
    const today = todayUtc(now);
    const day = today > lastDay ? lastDay : today;
    const computed = cobvAmountsOn(charge, day);
    const a = computed.ok ? computed.value : { desconto: 0, abatimento: 0, final: charge.value };
    timing = {
      dueDate: endOfDay(charge.due_date!),
      ...(platform.daysForDueDate !== undefined ? { daysForDueDate: platform.daysForDueDate } : {}),
      daysAfterDueDate: charge.validity_after_due ?? 0,
      expiresDate: endOfDay(addCalendarDays(charge.due_date!, charge.validity_after_due ?? 0)),
      ...(platform.interests ? { interests: platform.interests } : {}),
      ...(platform.fines ? { fines: platform.fines } : {}),
      ...(platform.discount ? { discountSettings: platform.discount } : {}),
    };
    const discount = a.desconto + a.abatimento;
    amounts = { discount, valueWithDiscount: charge.value - discount, valueToPay: a.final };
  }

  return {
    status: platformStatusOf(charge, now),
    value: charge.value,
    type: charge.platform_type,
    ...(comment !== undefined ? { comment } : {}),
    correlationID: charge.correlation_id ?? charge.txid,
    identifier: charge.txid,
    transactionID: charge.txid,
    globalID: globalIdOf(charge.id),
    paymentLinkID: charge.payment_link_id,
    paymentLinkUrl: paymentLinkUrlOf(publicUrl, charge.payment_link_id),
    qrCodeImage,
    brCode,
    pixKey: charge.pix_key,
    ...timing,
    ...amounts,
    ...(customer ? { customer } : {}),
    ...(body.infoAdicionais?.length
      ? { additionalInfo: body.infoAdicionais.map((i) => ({ key: i.nome, value: i.valor })) }
      : {}),
    ...(platform.subaccount ? { subaccount: platform.subaccount } : {}),
    ...(platform.splits ? { splits: platform.splits } : {}),
    paymentMethods: {
      pix: {
        method: charge.kind === 'cob' ? 'PIX_COB' : 'PIX_COBV',
        transactionID: charge.txid,
        identifier: charge.txid,
        txId: charge.txid,
        value: charge.value,
        status: platformStatusOf(charge, now),
        brCode,
        qrCodeImage,
      },
    },
    ...(charge.paid_at ? { paidAt: charge.paid_at.toISOString() } : {}),
    createdAt: charge.created_at.toISOString(),
    updatedAt: charge.updated_at.toISOString(),
  };
}

// The platform API's charge object (as GET /api/v1/charge/{id} answers it).
export async function platformChargeView(
  db: Kysely<Database>,
  charge: Charge,
  publicUrl: string,
  now: Date,
): Promise<Record<string, unknown>> {
  return buildPlatformChargeView(charge, await chargeViewContext(db, charge), publicUrl, now);
}
