// Pure rules of recurrences and their confirmation requests: which statuses are final or open.
import type { RecStatus, SolicRecStatus } from '../db/schema';

export const ENDED_REC: RecStatus[] = ['EXPIRADA', 'CANCELADA', 'REJEITADA'];
export const OPEN_REQUEST: SolicRecStatus[] = ['CRIADA', 'ENVIADA', 'RECEBIDA'];

// The CPF or CNPJ of a person of the standard (exactly one of them).
export function taxIdOf(p: { cpf: string } | { cnpj: string }): string {
  return 'cpf' in p ? p.cpf : p.cnpj;
}
