// IBGE municipality codes (codMun of the due-date payload): 7 digits, the first two a state
// code, the last a check digit (weights 1,2,1,2,1,2 over the first six, digits of products
// summed, complement to 10). A few real codes predate the check digit and are listed.

const STATE_CODES = new Set([
  11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 35, 41, 42, 43, 50, 51, 52, 53,
]);
const CHECK_DIGIT_EXCEPTIONS = new Set([
  '2201919',
  '2201988',
  '2202251',
  '2611533',
  '3117836',
  '3152131',
  '4305871',
  '5203939',
  '5203962',
]);

export function isMunicipalityCode(code: string): boolean {
  if (!/^[0-9]{7}$/.test(code)) return false;
  if (!STATE_CODES.has(Number(code.slice(0, 2)))) return false;
  if (code.slice(2, 6) === '0000') return false;
  if (CHECK_DIGIT_EXCEPTIONS.has(code)) return true;
  let sum = 0;
  for (let i = 0; i < 6; i++) {
    const product = Number(code[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10 === Number(code[6]);
}
