// Renders an ApiError in the format of the API that was called.
import type { ApiError } from './errors';
import type { ApiName, KoaContext } from './dispatch';
import type { OperationMeta } from './types';

const PIX_ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

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
  415: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  422: { type: 'RequisicaoInvalida', title: 'Requisição inválida.' },
  429: { type: 'LimiteExcedido', title: 'Limite de requisições excedido.' },
  500: { type: 'ErroInternoDoServidor', title: 'Erro interno do servidor.' },
  501: { type: 'NaoImplementado', title: 'Não implementado.' },
  503: { type: 'ServicoIndisponivel', title: 'Serviço indisponível.' },
  504: { type: 'IndisponibilidadePorTempoEsgotado', title: 'Indisponibilidade por tempo esgotado.' },
};

export function renderError(
  koa: KoaContext,
  api: ApiName,
  error: ApiError,
  operation: OperationMeta | undefined,
): void {
  koa.status = error.status;
  for (const [k, v] of Object.entries(error.options.headers ?? {})) koa.set(k, v);
  if (api === 'platform') {
    koa.type = 'application/json';
    koa.body = {
      error: error.options.errorBody ?? error.message,
      ...(error.options.details
        ? { details: error.options.details.map(({ field, message }) => ({ field, message })) }
        : {}),
    };
    return;
  }
  if (error.options.oauthError || operation?.operationId === 'issueToken') {
    // The token endpoint speaks OAuth2 (RFC 6749 5.2), whatever went wrong.
    const code =
      error.options.oauthError ??
      (error.status === 401 ? 'invalid_client' : error.status >= 500 ? 'server_error' : 'invalid_request');
    const detail = error.options.details?.map((d) => `${d.field} ${d.message}`).join('; ');
    koa.type = 'application/json';
    koa.body = { error: code, error_description: detail ? `${error.message}: ${detail}` : error.message };
    return;
  }
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
  koa.type = 'application/problem+json';
  koa.body = {
    type: PIX_ERROR_BASE + type,
    title,
    status: error.status,
    detail: error.message,
    ...(error.options.details?.length
      ? {
          violacoes: error.options.details.map((d) => ({
            razao: d.message,
            propriedade: d.field,
            ...(d.value !== undefined ? { valor: d.value } : {}),
          })),
        }
      : {}),
  };
}

// "CobNaoEncontrado" -> "Cob Nao Encontrado": a readable title for types without one.
function titleFromType(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2') + '.';
}
