// Who holds an account at an institution: the debit and credit parties of the rail and of
// the simulated world outside this server.
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
