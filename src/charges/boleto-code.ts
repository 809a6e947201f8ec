// The boleto of a BOLETO charge: its barcode and digitable line, derived from the charge (no
// column of its own). A BOLETO charge is a cobv (a due date, fines, interest, discounts) that
// is also payable by boleto, as the public reference's BOLETO charges are.
//
// This server is a Pix participant without a bank (COMPE) code, so its boletos are registered
// at a partner bank, as the public reference's are at Itaú (341). The free field (25 digits)
// is the marker 999 and the charge's payment location id: a barcode names its charge, and one
// that is not of this server is told apart without a lookup.
import type { Charge } from '../db/schema';
import { barcodeToDigitableLine, buildBankBarcode } from '../lib/boleto';
import { cents } from '../lib/money';

export const BOLETO_ISSUER_COMPE = '341';
const MARKER = '999';

export interface ChargeBoleto {
  barcode: string;
  digitableLine: string;
}

export function boletoOfCharge(
  charge: Pick<Charge, 'platform_type' | 'location_id' | 'due_date' | 'value'>,
): ChargeBoleto | undefined {
  if (charge.platform_type !== 'BOLETO' || charge.location_id === null || !charge.due_date) return undefined;
  const barcode = buildBankBarcode({
    bankCode: BOLETO_ISSUER_COMPE,
    amount: cents(charge.value),
    dueDate: charge.due_date,
    freeField: `${MARKER}${String(charge.location_id).padStart(22, '0')}`,
  });
  return { barcode, digitableLine: barcodeToDigitableLine(barcode) };
}

// The payment location a barcode (44 digits, checked) of this server names; undefined for
// another bank's boleto.
export function locationIdOfBarcode(barcode: string): number | undefined {
  if (!barcode.startsWith(BOLETO_ISSUER_COMPE) || barcode.slice(19, 22) !== MARKER) return undefined;
  const id = Number(barcode.slice(22));
  // Location ids are int8: 22 digits may exceed what a number holds exactly, which names none.
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
