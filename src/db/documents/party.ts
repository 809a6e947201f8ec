// Who holds an account at an institution: the debit and credit parties of the rail and of
// the simulated world outside this server, and where a payment goes (stored with it).
import type { PixKeyType } from '../../lib/pix-key';

export type AccountType = 'CACC' | 'SVGS' | 'TRAN' | 'SLRY';

// An account holder at an institution (a debit or credit party).
export interface Party {
  name: string;
  tradeName?: string;
  // Digits; a person's CPF is shown masked by lookups (taxIdMasked).
  taxId: string;
  taxIdType: 'BR:CPF' | 'BR:CNPJ';
  ispb: string;
  bank: string;
  branch: string;
  account: string;
  accountType: AccountType;
}

// Where a payment goes: the party, and how the money is addressed.
export interface Destination extends Party {
  where: 'local' | 'outside';
  // Local destinations: the company and account credited (absent: no such account here).
  companyId?: string;
  accountId?: string;
  pixKey?: string;
  pixKeyType?: PixKeyType;
  // A dynamic BR Code's payload location (without scheme) and the txid of a static code.
  locationUrl?: string;
  txid?: string;
  // MANUAL payments: the tax id the payer declared for the holder (checked on settlement).
  declaredTaxId?: string;
}

export interface DictEntry {
  key: string;
  type: PixKeyType;
  owner: Party;
  local?: { companyId: string; accountId: string };
}
