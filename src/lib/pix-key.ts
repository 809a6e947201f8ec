// Pix keys as registered in the DICT: CPF, CNPJ, e-mail, phone and random (EVP) keys.

import { fail, ok, type Result } from './money';
import { isValidCnpj, isValidCpf, isValidEmail, normalizePhone } from './taxid';

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
/** Key types as a caller may declare them; RANDOM is the platform API's name for EVP. */
export type DeclaredPixKeyType = PixKeyType | 'RANDOM';

const EMAIL_KEY_MAX = 77;
// The DICT's e-mail key pattern (lowercase ASCII).
const EMAIL_KEY =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const EVP_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PHONE_KEY = /^\+55\d{10,11}$/;

// Returns the key in its DICT form if it is a valid key of this type, or null.
function canonicalKey(key: string, type: PixKeyType): string | null {
  switch (type) {
    case 'CPF':
      return isValidCpf(key) ? key : null;
    case 'CNPJ':
      return isValidCnpj(key) ? key : null;
    case 'EMAIL': {
      const email = key.toLowerCase();
      return email.length <= EMAIL_KEY_MAX && EMAIL_KEY.test(email) && isValidEmail(email) ? email : null;
    }
    case 'PHONE': {
      if (!PHONE_KEY.test(key)) return null;
      const phone = normalizePhone(key);
      return phone.ok && phone.value === key ? key : null;
    }
    case 'EVP': {
      const evp = key.toLowerCase();
      return EVP_KEY.test(evp) ? evp : null;
    }
  }
}

// Order matters only for readability: the shapes of the five types never overlap.
const TYPES_TO_TRY: PixKeyType[] = ['EVP', 'EMAIL', 'PHONE', 'CPF', 'CNPJ'];

// Says which type of Pix key a string is, or null if it is not a valid key.
export function classifyPixKey(key: string): PixKeyType | null {
  if (typeof key !== 'string') return null;
  return TYPES_TO_TRY.find((type) => canonicalKey(key, type) !== null) ?? null;
}

// Validates a Pix key (against its declared type, if any) and returns it in DICT form with its type.
export function validatePixKey(
  key: string,
  declaredType?: DeclaredPixKeyType,
): Result<{ key: string; type: PixKeyType }> {
  if (typeof key !== 'string' || key.length === 0) return fail('pixKey must be a non-empty string');
  if (declaredType !== undefined) {
    const type: PixKeyType = declaredType === 'RANDOM' ? 'EVP' : declaredType;
    const canonical = canonicalKey(key, type);
    return canonical === null ? fail(`pixKey is not a valid ${declaredType} key`) : ok({ key: canonical, type });
  }
  const type = classifyPixKey(key);
  if (type === null) return fail('pixKey is not a valid CPF, CNPJ, EMAIL, PHONE or EVP key');
  return ok({ key: canonicalKey(key, type)!, type });
}
