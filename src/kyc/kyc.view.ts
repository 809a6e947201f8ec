// Answers of the KYC operations, and the sandbox's deterministic "data enrichment" (there is
// no company or person registry here: names are derived from the tax ids).
import type { components } from '../../generated/platform.types';
import type { KycOnboardingRow } from '../db/schema';
import type { RepresentativeWithChannels } from './kyc.repository';

export function enrichedCompanyNames(cnpj: string): { officialName: string; tradeName: string } {
  const root = cnpj.slice(0, 8);
  return { officialName: `Empresa ${root} Ltda`, tradeName: `Empresa ${root}` };
}

// "Representante ***.498.753-**": the CPF masked the way the Pix standard shows it.
export function enrichedPersonName(cpf: string): string {
  return `Representante ***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}

// The one-time code message (Portuguese: the administrators are Brazilian merchants).
export function codeMessage(code: string, merchant: string): { subject: string; body: string } {
  return {
    subject: `Código de confirmação: ${code}`,
    body:
      `Seu código de confirmação do cadastro de ${merchant} é ${code}.\n` +
      'Ele vale por 10 minutos. Não o compartilhe com ninguém.\n' +
      'Se você não pediu este código, ignore esta mensagem.',
  };
}

export function onboardingLink(publicUrl: string, token: string): string {
  return `${publicUrl}/kyc/onboarding/${token}`;
}

// Confirmed: by a one-time code to the current address, or the address of an account user.
export function emailConfirmed(r: RepresentativeWithChannels, accountUserEmails: string[]): boolean {
  return r.email !== null && (r.email_verified_address === r.email || accountUserEmails.includes(r.email));
}

export function phoneConfirmed(r: RepresentativeWithChannels): boolean {
  return r.phone !== null && r.phone_verified_address === r.phone;
}

export function representativeView(
  r: RepresentativeWithChannels,
  accountUserEmails: string[],
): components['schemas']['KycRepresentative'] {
  return {
    id: r.id,
    name: r.name,
    ...(r.email !== null ? { email: r.email } : {}),
    ...(r.phone !== null ? { phone: r.phone } : {}),
    taxID: r.tax_id,
    emailVerified: emailConfirmed(r, accountUserEmails),
    phoneVerified: phoneConfirmed(r),
    targetAdministrator: r.target_administrator,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function onboardingView(
  o: KycOnboardingRow,
  publicUrl: string,
  representatives: RepresentativeWithChannels[],
  accountUserEmails: string[],
) {
  return {
    correlationID: o.correlation_id,
    taxID: o.tax_id,
    officialName: o.official_name,
    tradeName: o.trade_name,
    status: o.status,
    link: onboardingLink(publicUrl, o.link_token),
    ...(o.redirect_url !== null ? { redirectUrl: o.redirect_url } : {}),
    representatives: representatives.map((r) => representativeView(r, accountUserEmails)),
    createdAt: o.created_at.toISOString(),
    updatedAt: o.updated_at.toISOString(),
  };
}
