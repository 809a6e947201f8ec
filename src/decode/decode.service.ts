// POST /api/v1/decode/emv: a Pix BR Code read field by field. Its validity is the payer's
// bank's (src/lib/brcode.ts parseBrCode: format, CRC, Pix GUI, amount); a location on this
// server is read and verified (src/rail/qr-location.ts) and answered in the platform's words.
import type { components } from '../../generated/platform.types';
import { errors } from '../errors/errors';
import { isJsonObject, type JsonObject } from '../lib/json';
import { PIX_GUI, parseBrCode, parseTlv, type TlvField } from '../lib/brcode';
import { isOwnLocation, readLocationPayload } from '../rail/rail.public';

type Decoded = components['schemas']['DecodedEmv'];
type DecodedLocation = components['schemas']['DecodedLocation'];
// The payload in the platform's words; the spec leaves its shape open.
type LocationPayload = NonNullable<NonNullable<DecodedLocation>['payload']>;

const field = (fields: TlvField[], id: string) => fields.find((f) => f.id === id)?.value;
const sub = (value: string | undefined): TlvField[] =>
  value ? ((parseTlv(value) as { value?: TlvField[] }).value ?? []) : [];
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

// The first template among ids from..to whose GUI (00) is the Pix one.
function pixTemplate(fields: TlvField[], from: number, to: number): TlvField[] | undefined {
  for (const f of fields) {
    const id = Number(f.id);
    if (id < from || id > to) continue;
    const inner = sub(f.value);
    if (field(inner, '00')?.toLowerCase() === PIX_GUI) return inner;
  }
  return undefined;
}

function emvOf(fields: TlvField[]): Decoded['emv'] {
  const pix = pixTemplate(fields, 26, 51) ?? [];
  const unreserved = pixTemplate(fields, 80, 99);
  const extra = sub(field(fields, '62'));
  return defined({
    payloadFormatIndicator: field(fields, '00')!,
    pointOfInitiationMethod: field(fields, '01'),
    merchantAccountInformationPix: defined({
      gui: field(pix, '00'),
      pixKey: field(pix, '01'),
      url: field(pix, '25'),
      additionalInformation: field(pix, '02'),
    }),
    merchantCategoryCode: field(fields, '52'),
    transactionCurrency: field(fields, '53'),
    transactionAmount: field(fields, '54'),
    countryCode: field(fields, '58'),
    merchantName: field(fields, '59'),
    merchantCity: field(fields, '60'),
    postalCode: field(fields, '61'),
    additionalDataFieldTemplate: field(fields, '62') ? defined({ referenceLabel: field(extra, '05') }) : undefined,
    unreservedTemplates: unreserved
      ? defined({ gui: field(unreserved, '00'), url: field(unreserved, '25') })
      : undefined,
    crc: field(fields, '63')!,
  });
}

// The location's payload is read as untrusted JSON: a missing or odd part reads as empty.
const o = (v: unknown): JsonObject => (isJsonObject(v) ? v : {});
const list = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.map(o) : []);

// A cob or cobv payload in the platform's words.
function cobPayload(p: JsonObject): LocationPayload {
  const cal = o(p.calendario);
  const dev = o(p.devedor);
  return defined({
    calendar: defined({
      creation: cal.criacao,
      presentation: cal.apresentacao,
      expiration: cal.expiracao,
      dueDate: cal.dataDeVencimento,
      validityAfterDueDate: cal.validadeAposVencimento,
    }),
    key: p.chave,
    debtor: p.devedor ? defined({ cpf: dev.cpf, cnpj: dev.cnpj, name: dev.nome }) : undefined,
    additionalInfo: list(p.infoAdicionais).map((i) => ({ name: i.nome, value: i.valor })),
    revision: p.revisao,
    status: p.status,
    txid: p.txid,
    value: defined({ original: o(p.valor).original, final: o(p.valor).final }),
  });
}

// A rec payload in the platform's words.
function recPayload(p: JsonObject): LocationPayload {
  const cal = o(p.calendario);
  const rec = o(p.recebedor);
  const link = o(p.vinculo);
  const debtor = o(link.devedor);
  return defined({
    updates: list(p.atualizacao).map((u) => ({ date: u.data, status: u.status })),
    calendar: defined({ startDate: cal.dataInicial, endDate: cal.dataFinal, periodicity: cal.periodicidade }),
    idRec: p.idRec,
    retryPolicy: p.politicaRetentativa,
    receiver: defined({ cnpj: rec.cnpj, participantIspb: rec.ispbParticipante, name: rec.nome }),
    value: defined({ valueRec: o(p.valor).valorRec }),
    link: defined({
      contract: link.contrato,
      object: link.objeto,
      debtor: defined({ cpf: debtor.cpf, cnpj: debtor.cnpj, name: debtor.nome }),
    }),
  });
}

export class DecodeService {
  constructor(private readonly publicUrl: string) {}

  async decode(emv: string): Promise<Decoded> {
    const parsed = parseBrCode(emv);
    if (!parsed.ok) {
      throw errors.validation(
        [{ field: 'emv', in: 'body', message: parsed.reason }],
        `Invalid EMV payload: ${parsed.reason}`,
      );
    }
    const fields = (parseTlv(parsed.value.raw) as { value: TlvField[] }).value;
    const decoded = emvOf(fields);
    const urls = [decoded.merchantAccountInformationPix.url, decoded.unreservedTemplates?.url];
    let cobLocation: DecodedLocation | null = null;
    let recLocation: DecodedLocation | null = null;
    for (const url of urls) {
      if (!url || !isOwnLocation(url, this.publicUrl)) continue;
      const isRec = /\/qr\/v2\/rec\//i.test(url);
      const location = await this.locationOf(url, isRec ? recPayload : cobPayload);
      if (isRec) recLocation = location;
      else cobLocation = location;
    }
    return { emv: decoded, cobLocation, recLocation };
  }

  private async locationOf(url: string, map: (p: JsonObject) => LocationPayload): Promise<DecodedLocation> {
    const read = await readLocationPayload(url, this.publicUrl);
    if (!read.ok) return { isValid: false, locationErrors: [read.reason.slice(0, 500)], url };
    return { isValid: true, locationErrors: [], url, payload: map(o(read.value)) };
  }
}
