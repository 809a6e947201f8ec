// The platform API's charge object, derived from the one charge record: the standard's body
// (value, message, extra information, debtor) plus the platform-only options.
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/platform.types';
import type { Charge, Company, Database, Location } from '../../db/schema';
import { brasiliaDate, brasiliaDateTime, endOfBrasiliaDay } from '../../lib/brasilia';
import { platformSettingsOf } from '../../lib/due-charge';
import {
  brCodeOf,
  cobvAmountsOn,
  cobvLastDay,
  cobvValorOf,
  globalIdOf,
  paymentLinkUrlOf,
  platformStatusOf,
  qrCodeImageUrlOf,
} from '../charge-model';
import { findLocationById } from '../locations.repository';
import { boletoOfCharge } from '../boleto-code';
import { findCompany } from '../../identity/identity.public';
import { isCobvBody, type PlatformSettings, type StoredCobBody } from '../../db/documents/charge-body';
import type { Devedor } from '../standard/standard.rules';

export interface ChargeViewContext {
  company: Pick<Company, 'name' | 'trade_name'>;
  location: Location | undefined;
}

export type PlatformCharge = components['schemas']['Charge'];

// The last instant of a civil date in Brasília (23:59:59.999), with its offset: the due date
// and the last payable day of a due-date charge as the payer's clock reads them.
const endOfDay = (date: string) => brasiliaDateTime(new Date(endOfBrasiliaDay(date).getTime() - 1));

// The customer of a charge: the one the platform API stored, else the standard's debtor.
function customerOf(platform: PlatformSettings, devedor: Devedor | undefined): PlatformCharge['customer'] {
  if (platform.customer) return platform.customer;
  if (!devedor?.nome) return undefined;
  const taxID: components['schemas']['TaxID'] | undefined = devedor.cpf
    ? { taxID: devedor.cpf, type: 'BR:CPF' }
    : devedor.cnpj
      ? { taxID: devedor.cnpj, type: 'BR:CNPJ' }
      : undefined;
  return { name: devedor.nome, ...(devedor.email ? { email: devedor.email } : {}), ...(taxID ? { taxID } : {}) };
}

export async function chargeViewContext(db: Kysely<Database>, charge: Charge): Promise<ChargeViewContext> {
  const [company, location] = await Promise.all([
    findCompany(db, charge.company_id),
    charge.location_id === null ? Promise.resolve(undefined) : findLocationById(db, Number(charge.location_id)),
  ]);
  if (!company) throw new Error(`company ${charge.company_id} of charge ${charge.id} not found`);
  return { company, location };
}

type Timing = {
  timing: Pick<
    PlatformCharge,
    | 'expiresIn'
    | 'expiresDate'
    | 'dueDate'
    | 'daysForDueDate'
    | 'daysAfterDueDate'
    | 'interests'
    | 'fines'
    | 'discountSettings'
  >;
  amounts: Pick<PlatformCharge, 'discount' | 'valueWithDiscount' | 'valueToPay'>;
};

function cobTimingOf(charge: Charge, body: StoredCobBody): Timing {
  return {
    timing: { expiresIn: body.calendario.expiracao, expiresDate: charge.expires_at!.toISOString() },
    amounts: { discount: 0, valueWithDiscount: charge.value },
  };
}

// A cobv's dates, and its amounts on today (the last payable day once past it).
function cobvTimingOf(charge: Charge, platform: PlatformSettings, now: Date): Timing {
  const lastDay = cobvLastDay(charge);
  const today = brasiliaDate(now);
  const computed = cobvAmountsOn(charge, today > lastDay ? lastDay : today);
  const a = computed.ok ? computed.value : { desconto: 0, abatimento: 0, final: charge.value };
  // Fines, interests and discount as the body holds them now (a Pix API revision included).
  const settings = platformSettingsOf(cobvValorOf(charge), charge.due_date!);
  const discount = a.desconto + a.abatimento;
  return {
    timing: {
      dueDate: endOfDay(charge.due_date!),
      ...(platform.daysForDueDate !== undefined ? { daysForDueDate: platform.daysForDueDate } : {}),
      daysAfterDueDate: charge.validity_after_due ?? 0,
      // the last payable instant: just before payable_until, the end of the last day in Brasília
      expiresDate: brasiliaDateTime(new Date(charge.payable_until.getTime() - 1)),
      ...(settings.interests ? { interests: settings.interests } : {}),
      ...(settings.fines ? { fines: settings.fines } : {}),
      ...(settings.discount ? { discountSettings: settings.discount } : {}),
    },
    amounts: { discount, valueWithDiscount: charge.value - discount, valueToPay: a.final },
  };
}

const BOLETO_STATUS = { ACTIVE: 'CREATED', COMPLETED: 'COMPLETED', EXPIRED: 'CANCELED' } as const;

// A BOLETO charge is payable by its boleto too (src/charges/boleto-code.ts).
function boletoMethodOf(charge: Charge, now: Date): { boleto?: components['schemas']['BoletoMethod'] } {
  const boleto = boletoOfCharge(charge);
  if (!boleto) return {};
  const status = BOLETO_STATUS[platformStatusOf(charge, now)];
  return {
    boleto: {
      method: 'BOLETO',
      boletoBarcode: boleto.barcode,
      boletoDigitable: boleto.digitableLine,
      status,
      value: charge.value,
    },
  };
}

// Builds the view from a charge and what it needs around it (no database access).
export function buildPlatformChargeView(
  charge: Charge,
  ctx: ChargeViewContext,
  publicUrl: string,
  now: Date,
): PlatformCharge {
  const { body, platform } = charge;
  const brCode = ctx.location ? brCodeOf(publicUrl, charge, ctx.location, ctx.company) : '';
  const qrCodeImage = qrCodeImageUrlOf(publicUrl, charge.payment_link_id);
  const comment = body.solicitacaoPagador ?? platform.comment;
  const customer = customerOf(platform, body.devedor);

  const { timing, amounts } = isCobvBody(body) ? cobvTimingOf(charge, platform, now) : cobTimingOf(charge, body);

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
      ...boletoMethodOf(charge, now),
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
): Promise<PlatformCharge> {
  return buildPlatformChargeView(charge, await chargeViewContext(db, charge), publicUrl, now);
}
