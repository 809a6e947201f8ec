// The open payload locations (/qr/v2): the charge a location serves, as a JWS signed with the
// server's payload key, with the amounts of a due-date charge for the intended payment date.
import type { Kysely } from 'kysely';
import type { Charge, ChargeKind, Database } from '../../db/schema';
import { errors } from '../../errors/errors';
import { brasiliaDate } from '../../lib/brasilia';
import { isValidDate } from '../../lib/business-days';
import type { Clock } from '../../db/clock';
import { cents, formatDecimalAmount } from '../../lib/money';
import type { PayloadKeyService } from '../../signing/payload-keys.service';
import { expectCobBody, expectCobvBody } from '../../db/documents/charge-body';
import { cobvAmountsOn, cobvLastDay } from '../charge-model';
import { findLocationWithCharge } from '../locations.repository';
import { isMunicipalityCode } from './municipality';

const money = (v: number) => formatDecimalAmount(cents(v));

export class PayloadService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly keys: PayloadKeyService,
  ) {}

  // The charge a token serves: 404 when it serves none (and never did), 410 when it did and
  // that charge is gone (unlinked or removed).
  private async chargeOf(token: string, kind: ChargeKind): Promise<Charge> {
    const found = await findLocationWithCharge(this.db, token);
    const location = found?.location;
    if (!location || location.kind !== kind) throw errors.notFound('The location does not serve a charge');
    if (!location.charge_id) {
      if (location.linked_once) throw errors.gone('The charge of this location was permanently removed');
      throw errors.notFound('The location does not serve a charge');
    }
    const charge = found.charge;
    if (!charge) throw errors.notFound('The location does not serve a charge');
    if (charge.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || charge.status === 'REMOVIDA_PELO_PSP') {
      throw errors.gone('The charge of this location was permanently removed');
    }
    return charge;
  }

  // GET /qr/v2/{token}: the immediate charge's payload (CobPayload) as a compact JWS.
  async cobPayload(token: string): Promise<string> {
    const charge = await this.chargeOf(token, 'cob');
    const now = await this.clock.now(charge.company_id);
    const body = expectCobBody(charge.body);
    const payload = {
      calendario: {
        criacao: body.calendario.criacao,
        apresentacao: now.toISOString(),
        expiracao: body.calendario.expiracao,
      },
      txid: charge.txid,
      revisao: charge.revision,
      status: charge.status,
      ...(body.devedor !== undefined ? { devedor: body.devedor } : {}),
      valor: body.valor,
      chave: body.chave,
      ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      ...(body.infoAdicionais !== undefined ? { infoAdicionais: body.infoAdicionais } : {}),
    };
    return this.keys.sign(payload);
  }

  // GET /qr/v2/cobv/{token}?codMun=&DPP=: the due-date charge's payload (CobVPayload) with
  // valor.final for the intended payment date (today by default).
  async cobvPayload(token: string, codMun: string | undefined, dpp: string | undefined): Promise<string> {
    if (codMun !== undefined && !isMunicipalityCode(codMun)) {
      throw errors.validation(
        [{ field: 'codMun', message: 'codMun is not an IBGE municipality code', value: codMun }],
        'codMun is not a municipality code of the IBGE table.',
      );
    }
    if (dpp !== undefined && !isValidDate(dpp)) {
      throw errors.validation(
        [{ field: 'DPP', message: 'DPP must be a date YYYY-MM-DD', value: dpp }],
        'DPP is not a date.',
      );
    }
    const charge = await this.chargeOf(token, 'cobv');
    const now = await this.clock.now(charge.company_id);
    const today = brasiliaDate(now);
    const paymentDate = dpp ?? today;
    if (paymentDate < today) {
      throw errors.validation(
        [{ field: 'DPP', message: 'DPP is before today', value: paymentDate }],
        'DPP is in the past.',
      );
    }
    const lastDay = cobvLastDay(charge);
    if (paymentDate > lastDay) {
      throw errors.validation(
        [{ field: 'DPP', message: `DPP is after the validity of the charge (${lastDay})`, value: paymentDate }],
        'DPP is after dataDeVencimento plus validadeAposVencimento.',
      );
    }
    const amounts = cobvAmountsOn(charge, paymentDate);
    if (!amounts.ok)
      throw errors.validation([{ field: 'DPP', message: amounts.reason, value: paymentDate }], amounts.reason);
    const a = amounts.value;
    const body = expectCobvBody(charge.body);
    const payload = {
      calendario: { ...body.calendario, apresentacao: now.toISOString() },
      devedor: body.devedor,
      recebedor: body.recebedor,
      txid: charge.txid,
      revisao: charge.revision,
      status: charge.status,
      valor: {
        original: money(a.original),
        multa: money(a.multa),
        juros: money(a.juros),
        abatimento: money(a.abatimento),
        desconto: money(a.desconto),
        final: money(a.final),
      },
      chave: body.chave,
      ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      ...(body.infoAdicionais !== undefined ? { infoAdicionais: body.infoAdicionais } : {}),
    };
    return this.keys.sign(payload);
  }
}
