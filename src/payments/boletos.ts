// Boletos as a payer sees them before paying: the decoded barcode (src/lib/boleto.ts) with
// the bank and the beneficiary. Beneficiaries live in the outside world (the registry that
// names them is out of reach), so each boleto gets a stable made-up one.
import { validateBoleto, type BoletoInfo } from '../lib/boleto';
import { fail, ok, type Result } from '../lib/money';
import { type Destination, cnpjFrom, institutionByCode, madeUpParty } from '../rail/rail.public';

export interface DescribedBoleto {
  info: BoletoInfo;
  view: {
    barcode: string;
    digitableLine: string;
    amount: number;
    dueDate?: string;
    beneficiary: { name: string; taxID: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' } };
    bank?: { code: string; name: string };
    discount: number;
    fine: number;
    interest: number;
    totalAmount: number;
    payable: boolean;
  };
  destination: Destination;
}

export function describeBoleto(input: string, today: string): Result<DescribedBoleto> {
  const checked = validateBoleto(input, today);
  if (!checked.ok) return fail(`Invalid boleto barcode: ${checked.reason}`);
  const info = checked.value;
  const institution = info.kind === 'bank' && info.bankCode ? institutionByCode(info.bankCode) : undefined;
  const companyId = info.beneficiary?.companyId;
  const taxId =
    info.kind === 'utility' && info.segment === '6' && companyId?.length === 8
      ? cnpjFrom(`${companyId}0001`)
      : undefined;
  const party = madeUpParty(
    `boleto:${info.barcode.slice(info.kind === 'bank' ? 19 : 15)}`,
    'company',
    taxId ? { taxId } : {},
  );
  const bankName = institution?.name ?? info.beneficiary?.bankName?.toUpperCase();
  const bank =
    info.kind === 'bank' && info.bankCode
      ? { code: info.bankCode, name: bankName ?? `BANK ${info.bankCode}` }
      : undefined;
  const destination: Destination = {
    ...party,
    ...(institution ? { ispb: institution.ispb } : {}),
    ...(bank ? { bank: bank.name } : {}),
    where: 'outside',
  };
  return ok({
    info,
    view: {
      barcode: info.barcode,
      digitableLine: info.digitableLine,
      amount: info.amount,
      ...(info.dueDate ? { dueDate: info.dueDate } : {}),
      beneficiary: { name: party.name, taxID: { taxID: party.taxId, type: party.taxIdType } },
      ...(bank ? { bank } : {}),
      discount: 0,
      fine: 0,
      interest: 0,
      totalAmount: info.amount,
      payable: info.amount > 0,
    },
    destination,
  });
}
