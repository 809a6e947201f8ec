// Renders a DomainError in the format of the API that was called.
import type { components as pixSchemas } from '../../generated/pix.types';
import type { components as platformSchemas } from '../../generated/platform.types';
import type { DomainError, FieldIssue } from '../errors/errors';
import type { ApiName, KoaContext, OperationMeta } from './types';

const PIX_ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

// The error schemas' limits (specs: maxLength of messages and echoed values): an answer about
// a 100 kB input quotes its start, not all of it.
const MAX_MESSAGE = 4096;
const MAX_ECHOED_VALUE = 1000;
const MAX_FIELD = 1000;

// Where an issue is, as both APIs write it: the request part it names, then its field
// (body.customer.taxID); issues without a part are written as named (cob.valor.original).
function located({ field, in: part }: Pick<FieldIssue, 'field' | 'in'>): string {
  if (!part) return field;
  return field ? `${part}.${field}` : part;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// General Pix problem types by status, and their titles, as the standard names them.
const PIX_GENERAL: Record<number, { type: string; title: string }> = {
  400: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  401: { type: 'NaoAutorizado', title: 'Não autorizado.' },
  403: { type: 'AcessoNegado', title: 'Acesso negado.' },
  404: { type: 'NaoEncontrado', title: 'Não encontrado.' },
  405: { type: 'MetodoNaoPermitido', title: 'Método não permitido.' },
  409: { type: 'Conflito', title: 'Conflito.' },
  410: { type: 'PermanentementeRemovido', title: 'Permanentemente removido.' },
  413: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  414: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  415: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  422: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  429: { type: 'LimiteExcedido', title: 'Limite de requisições excedido.' },
  431: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  500: { type: 'ErroInternoDoServidor', title: 'Erro interno do servidor.' },
  503: { type: 'ServicoIndisponivel', title: 'Serviço indisponível.' },
  504: { type: 'IndisponibilidadePorTempoEsgotado', title: 'Indisponibilidade por tempo esgotado.' },
};

type PlatformError = platformSchemas['schemas']['Error'] | platformSchemas['schemas']['AccountRegisterError'];
type Problem = pixSchemas['schemas']['Problem'];
// The spec lists the RFC 6749 codes of its 400 and 401 answers; a failure of the server
// answers server_error too (RFC 6749 5.2), so the code is any string here.
type OAuthError = Omit<pixSchemas['schemas']['OAuthError'], 'error'> & { error: string };

export interface ErrorResponse {
  contentType: string;
  body: PlatformError | Problem | OAuthError;
}

export function renderError(
  koa: KoaContext,
  api: ApiName,
  error: DomainError,
  operation: OperationMeta | undefined,
): void {
  koa.status = error.status;
  for (const [k, v] of Object.entries(error.options.headers ?? {})) koa.set(k, v);
  const { contentType, body } = errorResponseOf(api, error, { operation, path: koa.path });
  koa.type = contentType;
  koa.body = body;
}

// The token endpoint's path: what goes wrong there before its operation is known (a body that
// cannot be parsed, a request Node's parser refuses) is answered in its format too.
const TOKEN_PATH = '/oauth/token';

// The error in the called API's format (also written by hand for what Koa never sees).
export function errorResponseOf(
  api: ApiName,
  error: DomainError,
  { operation, path }: { operation?: OperationMeta | undefined; path?: string } = {},
): ErrorResponse {
  if (api === 'platform') return { contentType: 'application/json', body: platformErrorOf(error) };
  if (error.options.oauthError || operation?.operationId === 'issueToken' || path === TOKEN_PATH) {
    // The token endpoint speaks OAuth2 (RFC 6749 5.2), whatever went wrong.
    const code =
      error.options.oauthError ??
      (error.status === 401
        ? 'invalid_client'
        : error.status === 503
          ? 'temporarily_unavailable'
          : error.status >= 500
            ? 'server_error'
            : 'invalid_request');
    const detail = error.options.details?.map((d) => `${located(d)} ${d.message}`).join('; ');
    const description = detail ? `${error.message}: ${detail}` : error.message;
    return { contentType: 'application/json', body: { error: code, error_description: description } };
  }
  return { contentType: 'application/problem+json', body: problemOf(error, operation) };
}

function platformErrorOf(error: DomainError): PlatformError {
  return {
    error: error.options.errorBody ?? clip(error.message, MAX_MESSAGE),
    ...(error.options.details
      ? {
          details: error.options.details.map(({ field, in: part, message }) => ({
            field: clip(located({ field, in: part }), MAX_FIELD),
            message: clip(message, MAX_MESSAGE),
          })),
        }
      : {}),
  };
}

// RFC 7807 as the standard writes it: the operation's own type for its statuses, else the
// general type of the status.
function problemOf(error: DomainError, operation: OperationMeta | undefined): Problem {
  const fromOperation = operation?.problemTypes[String(error.status)];
  const general = PIX_GENERAL[error.status] ?? PIX_GENERAL[error.status >= 500 ? 500 : 400]!;
  // An explicit type wins; a generic 404/400 of an operation takes that operation's type.
  const type = error.options.pixType ?? fromOperation?.type ?? general.type;
  const title =
    type === fromOperation?.type
      ? fromOperation.title
      : PIX_GENERAL[error.status]?.type === type
        ? general.title
        : titleFromType(type);
  return {
    type: PIX_ERROR_BASE + type,
    title,
    status: error.status,
    detail: clip(error.message, MAX_MESSAGE),
    ...(error.options.details?.length
      ? {
          violacoes: error.options.details.map((d) => ({
            razao: clip(d.message, MAX_MESSAGE),
            propriedade: clip(located(d), MAX_FIELD),
            ...(d.value !== undefined ? { valor: clip(d.value, MAX_ECHOED_VALUE) } : {}),
          })),
        }
      : {}),
  };
}

// "CobNaoEncontrado" -> "Cob Nao Encontrado": a readable title for types without one.
function titleFromType(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2') + '.';
}
