// Where a new payment goes and how much it moves, from its create body: a key (through a DICT
// lookup, or the lookup named by pixKeyEndToEndId), a BR Code (static: its key; dynamic: its
// verified payload on this server, or the outside world for other hosts), a bank account
// given by hand, or a boleto. Runs before the payment's transaction: it may spend a lookup
// token (kept even if the payment is then refused) and fetch a payload over HTTP.
import type { components } from '../../generated/platform.types';
import type { Kysely } from 'kysely';
import type { Database, PaymentRequestEcho } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { parseBrCode } from '../lib/brcode';
import { cents, type Cents } from '../lib/money';
import { validatePixKey, type PixKeyType } from '../lib/pix-key';
import { normalizeTaxId } from '../lib/taxid';
import { emptyBucket, type KeyLookupService } from '../keys/lookups.service';
import {
  type DictEntry,
  type Destination,
  type Rail,
  isOwnLocation,
  readDynamicPayload,
  madeUpParty,
} from '../rail/rail.public';
import { describeBoleto } from './boletos';

// A payment create body as sent (PIX_KEY and QR_CODE bodies may leave `type` out) and as the
// service works with it (its type always set).
export type PaymentCreateRequest = components['schemas']['PaymentCreatePayload'];
type WithType<T> = T extends { type?: infer K } ? T & { type: NonNullable<K> } : never;
export type CreatePaymentBody = WithType<PaymentCreateRequest>;

// The type a body without one means: the schema lets only PIX_KEY (destinationAlias) and
// QR_CODE (qrCode) bodies leave it out.
export function withPaymentType(body: PaymentCreateRequest): CreatePaymentBody {
  if (body.type !== undefined) return body as CreatePaymentBody;
  return { ...body, type: 'qrCode' in body ? 'QR_CODE' : 'PIX_KEY' } as CreatePaymentBody;
}

export interface Resolved {
  value: Cents;
  destination: Destination;
  // Set when a key lookup made the end-to-end id the payment must carry.
  endToEndId?: string;
  echo: PaymentRequestEcho;
}

function fromEntry(entry: DictEntry, key: string): Destination {
  return {
    ...entry.owner,
    where: entry.local ? 'local' : 'outside',
    ...(entry.local ? { companyId: entry.local.companyId, accountId: entry.local.accountId } : {}),
    pixKey: key,
    pixKeyType: entry.type,
  };
}

export class PaymentDestinations {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly rail: Rail,
    private readonly lookups: KeyLookupService,
    private readonly publicUrl: string,
  ) {}

  async resolve(principal: Principal, body: CreatePaymentBody, today: string): Promise<Resolved> {
    switch (body.type) {
      case 'PIX_KEY':
        return this.pixKey(principal, body);
      case 'QR_CODE':
        return this.qrCode(principal, body);
      case 'MANUAL':
        return this.manual(body);
      case 'BOLETO': {
        const described = describeBoleto(body.boletoBarcode, today);
        if (!described.ok) throw errors.badRequest(described.reason);
        if (described.value.info.amount <= 0) throw errors.badRequest('This boleto carries no amount to pay');
        return {
          value: cents(described.value.info.amount),
          destination: described.value.destination,
          echo: { boletoBarcode: body.boletoBarcode },
        };
      }
    }
  }

  private async pixKey(principal: Principal, body: Extract<CreatePaymentBody, { type: 'PIX_KEY' }>): Promise<Resolved> {
    const parsed = validatePixKey(body.destinationAlias.trim(), body.destinationAliasType);
    if (!parsed.ok) throw errors.validation([{ field: 'destinationAlias', in: 'body', message: parsed.reason }]);
    const { key, type } = parsed.value;
    const echo: PaymentRequestEcho = { destinationAlias: key, destinationAliasType: body.destinationAliasType };
    if (body.pixKeyEndToEndId !== undefined) {
      const found = await this.lookups.findLookup(this.db, principal.companyId, body.pixKeyEndToEndId);
      if (!found) throw errors.badRequest('pixKeyEndToEndId is not the end-to-end id of a key lookup of this company');
      if (found.key !== key) throw errors.badRequest('pixKeyEndToEndId comes from a lookup of another key');
      return {
        value: cents(body.value),
        destination: fromEntry(found.entry, key),
        endToEndId: body.pixKeyEndToEndId,
        echo,
      };
    }
    const { entry, endToEndId } = await this.lookupFor(principal, key, type);
    return { value: cents(body.value), destination: fromEntry(entry, key), endToEndId, echo };
  }

  private async lookupFor(
    principal: Principal,
    key: string,
    type: PixKeyType,
  ): Promise<{ entry: DictEntry; endToEndId: string }> {
    const outcome = await this.lookups.lookup(principal, key, type, 'payment');
    if (outcome.kind === 'empty') throw emptyBucket(outcome.nextRefresh);
    if (outcome.kind === 'notFound') throw errors.badRequest('Pix key not found');
    return outcome;
  }

  private async qrCode(principal: Principal, body: Extract<CreatePaymentBody, { type: 'QR_CODE' }>): Promise<Resolved> {
    const parsed = parseBrCode(body.qrCode);
    if (!parsed.ok) throw errors.badRequest(`Invalid QR code: ${parsed.reason}`);
    const code = parsed.value;
    const echo: PaymentRequestEcho = { qrCode: code.raw };
    if (code.kind === 'static') {
      const key = validatePixKey(code.pixKey!.trim());
      if (!key.ok) throw errors.badRequest(`Invalid QR code: its Pix key is not valid (${key.reason})`);
      const { entry, endToEndId } = await this.lookupFor(principal, key.value.key, key.value.type);
      const destination = {
        ...fromEntry(entry, key.value.key),
        ...(code.txid && code.txid !== '***' ? { txid: code.txid } : {}),
      };
      return { value: this.valueOf({ amount: code.amount }, body.value), destination, endToEndId, echo };
    }
    const location = code.locationUrl!;
    if (!isOwnLocation(location, this.publicUrl)) {
      // Another institution's code: the simulated outside world (not fetched).
      const party = madeUpParty(`qr:${location.split('/')[0]!.toLowerCase()}`, 'company', { name: code.merchantName });
      return {
        value: this.valueOf({ amount: code.amount }, body.value),
        destination: { ...party, where: 'outside', locationUrl: location },
        echo,
      };
    }
    const payload = await readDynamicPayload(location, this.publicUrl);
    if (!payload.ok) throw errors.badRequest(`The QR code's payload could not be used: ${payload.reason}`);
    if (payload.value.status !== 'ATIVA')
      throw errors.badRequest(`The QR code's charge cannot be paid (status ${payload.value.status})`);
    const key = validatePixKey(payload.value.key);
    const entry = key.ok ? await this.rail.lookupKey(this.db, key.value.key, key.value.type) : undefined;
    if (!key.ok || !entry?.local) throw errors.badRequest("The QR code's receiving key is not on this server");
    const destination: Destination = {
      ...fromEntry(entry, key.value.key),
      locationUrl: location,
      txid: payload.value.txid,
    };
    return {
      value: this.valueOf({ amount: payload.value.amount, editable: payload.value.amountEditable }, body.value),
      destination,
      echo,
    };
  }

  // The code's amount unless it has none (then `value` is required) or lets the payer change it.
  private valueOf(
    { amount, editable = false }: { amount: Cents | undefined; editable?: boolean },
    value: number | undefined,
  ): Cents {
    if (amount === undefined) {
      if (value === undefined)
        throw errors.validation([
          { field: 'value', in: 'body', message: 'is required to pay a QR code without an amount' },
        ]);
      return cents(value);
    }
    if (value !== undefined && value !== amount && !editable) {
      throw errors.badRequest(
        `This QR code has a fixed amount (${amount} cents); value may be sent only for QR codes without an amount`,
      );
    }
    return cents(value ?? amount);
  }

  private async manual(body: Extract<CreatePaymentBody, { type: 'MANUAL' }>): Promise<Resolved> {
    const taxId = normalizeTaxId(body.holder.taxID.taxID);
    const declared = body.holder.taxID.type === 'BR:CPF' ? 'BR_CPF' : 'BR_CNPJ';
    if (!taxId.ok || taxId.value.type !== declared) {
      throw errors.validation([
        {
          field: 'holder.taxID.taxID',
          in: 'body',
          message: taxId.ok ? `is not a ${body.holder.taxID.type.slice(3)}` : taxId.reason,
        },
      ]);
    }
    const destination = await this.rail.resolveAccount(this.db, {
      ispb: body.psp.id,
      ...(body.psp.name ? { bankName: body.psp.name } : {}),
      branch: body.account.branch,
      account: body.account.account,
      accountType: body.account.accountType,
      holder: { name: body.holder.name.trim(), taxId: taxId.value.taxId, taxIdType: body.holder.taxID.type },
    });
    const echo: PaymentRequestEcho = {
      holder: { name: body.holder.name.trim(), taxID: { taxID: taxId.value.taxId, type: body.holder.taxID.type } },
      psp: { id: body.psp.id, ...(body.psp.name ? { name: body.psp.name } : {}) },
      account: { branch: body.account.branch, account: body.account.account, accountType: body.account.accountType },
    };
    return { value: cents(body.value), destination, echo };
  }
}
