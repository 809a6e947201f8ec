// Paging of both APIs: the platform's skip/limit with pageInfo, the standard's paginacao
// with parametros, and the standard's rules for list queries (ConsultaInvalida).
import { errors, type FieldIssue } from '../errors/errors';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page {
  skip: number;
  limit: number;
}

export function pageOf(query: { skip?: number; limit?: number }): Page {
  return { skip: query.skip ?? 0, limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT) };
}

export function pageInfo(page: Page, totalCount: number) {
  return {
    skip: page.skip,
    limit: page.limit,
    totalCount,
    hasPreviousPage: page.skip > 0,
    hasNextPage: page.skip + page.limit < totalCount,
  };
}

export interface PixListQuery {
  inicio?: string;
  fim?: string;
  cpf?: string;
  cnpj?: string;
  'paginacao.paginaAtual'?: number;
  'paginacao.itensPorPagina'?: number;
}

export interface PixPage {
  paginaAtual: number;
  itensPorPagina: number;
  offset: number;
}

// Checks what the schema cannot (fim before inicio, cpf with cnpj) and reads the page.
export function pixListQuery(query: PixListQuery): PixPage & { inicio?: Date; fim?: Date } {
  const issues: FieldIssue[] = [];
  const inicio = query.inicio ? new Date(query.inicio) : undefined;
  const fim = query.fim ? new Date(query.fim) : undefined;
  if (inicio && fim && fim < inicio)
    issues.push({ field: 'fim', message: 'fim is earlier than inicio', value: query.fim! });
  if (query.cpf && query.cnpj)
    issues.push({ field: 'cpf', message: 'cpf and cnpj cannot be used together', value: query.cpf });
  const paginaAtual = query['paginacao.paginaAtual'] ?? 0;
  const itensPorPagina = query['paginacao.itensPorPagina'] ?? 100;
  if (paginaAtual < 0)
    issues.push({ field: 'paginacao.paginaAtual', message: 'must be zero or more', value: String(paginaAtual) });
  if (itensPorPagina < 1 || itensPorPagina > 1000)
    issues.push({
      field: 'paginacao.itensPorPagina',
      message: 'must be from 1 to 1000',
      value: String(itensPorPagina),
    });
  if (issues.length) throw errors.validation(issues, 'The list parameters are not valid');
  return {
    ...(inicio ? { inicio } : {}),
    ...(fim ? { fim } : {}),
    paginaAtual,
    itensPorPagina,
    offset: paginaAtual * itensPorPagina,
  };
}

// The standard's `parametros` of a list answer: the period as the query gave it (required where
// the operation requires it), the query's other filters (`extra`) and the paging.
export function parametros<Q extends { inicio?: string; fim?: string }, E extends object = object>(
  query: Q,
  page: PixPage,
  total: number,
  extra?: E,
) {
  const period: { inicio?: string; fim?: string } = {
    ...(query.inicio ? { inicio: query.inicio } : {}),
    ...(query.fim ? { fim: query.fim } : {}),
  };
  return {
    // Present exactly when the query has them, which is what Pick of the query's type says.
    ...(period as Pick<Q, 'inicio' | 'fim'>),
    ...(extra ?? ({} as E)),
    paginacao: {
      paginaAtual: page.paginaAtual,
      itensPorPagina: page.itensPorPagina,
      quantidadeDePaginas: Math.max(1, Math.ceil(total / page.itensPorPagina)),
      quantidadeTotalDeItens: total,
    },
  };
}

// The start and end of a list by period (transactions, statements); end before start is refused.
export function periodOf(query: { start?: string; end?: string }): { start?: Date; end?: Date } {
  const start = query.start ? new Date(query.start) : undefined;
  const end = query.end ? new Date(query.end) : undefined;
  if (start && end && end < start) {
    throw errors.validation(
      [{ field: 'end', in: 'query', message: 'is earlier than start', value: query.end! }],
      'Invalid end',
    );
  }
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}
