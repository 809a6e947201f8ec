// How personal data is shown on a document that leaves the platform (a Pix receipt is
// forwarded to whoever asks "did it arrive?"):
// - a CPF shows its six middle digits, "***.456.789-**": the Central Bank's rule for a person's
//   CPF shown to the other side of a Pix (the DICT's answers to a payer, and receipts);
// - a CNPJ is public (the company register), shown in full: "11.222.333/0001-81";
// - a Pix key as the DICT shows it to a payer: a CPF key masked as a CPF, a CNPJ key in full,
//   an e-mail with its first letter and domain ("m***@example.com.br"), a phone with its
//   country and area codes and last four digits ("+55 (11) *****-2187"), and a random (EVP)
//   key in full (it is not personal data and it is what the receiver shares).
import type { PixKeyType } from './pix-key';

export function maskCpf(cpf: string): string {
  return /^[0-9]{11}$/.test(cpf) ? `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**` : '***';
}

// Digits (or the 2026 alphanumeric form) with the register's punctuation.
export function formatCnpj(cnpj: string): string {
  return /^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj)
    ? `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`
    : cnpj;
}

// A tax id as a receipt shows it: a CPF masked, a CNPJ in full.
export function shownTaxId(taxId: string): { label: 'CPF' | 'CNPJ'; value: string } {
  return taxId.length === 11 ? { label: 'CPF', value: maskCpf(taxId) } : { label: 'CNPJ', value: formatCnpj(taxId) };
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  return /^\+55[0-9]{10,11}$/.test(phone) ? `+55 (${phone.slice(3, 5)}) *****-${phone.slice(-4)}` : '***';
}

export function maskPixKey(key: string, type: PixKeyType): string {
  switch (type) {
    case 'CPF':
      return maskCpf(key);
    case 'CNPJ':
      return formatCnpj(key);
    case 'EMAIL':
      return maskEmail(key);
    case 'PHONE':
      return maskPhone(key);
    case 'EVP':
      return key;
  }
}
