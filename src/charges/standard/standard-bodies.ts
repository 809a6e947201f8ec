// Building the standard's object of a cob or cobv from a request (create or revision).
// Pure: the caller supplies the receiver and the creation time.
import type { Company } from '../../db/schema';
import type {
  CobvValor,
  PixSchemas,
  Recebedor,
  StoredChargeBody,
  StoredCobBody,
  StoredCobvBody,
} from '../../db/documents/charge-body';
import { RECEIVER_ADDRESS } from '../charge-model';
import type { StandardInput } from './standard.rules';

export const DEFAULT_EXPIRACAO = 86400;
export const DEFAULT_VALIDADE = 30;

const COB_DEVEDOR_FIELDS = ['cpf', 'cnpj', 'nome'] as const;
const COBV_DEVEDOR_FIELDS = ['cpf', 'cnpj', 'nome', 'logradouro', 'cidade', 'uf', 'cep', 'email'] as const;

function pick<T extends object>(o: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => keys.includes(k) && v !== undefined)) as T;
}

const optionalTexts = (input: StandardInput) => ({
  ...(input.solicitacaoPagador !== undefined ? { solicitacaoPagador: input.solicitacaoPagador } : {}),
  ...(input.infoAdicionais !== undefined
    ? { infoAdicionais: input.infoAdicionais.map((i) => ({ nome: i.nome, valor: i.valor })) }
    : {}),
});

export function cobBodyOf(input: StandardInput, criacao: Date): StoredCobBody {
  const valor = input.valor!;
  return {
    calendario: { criacao: criacao.toISOString(), expiracao: input.calendario?.expiracao ?? DEFAULT_EXPIRACAO },
    ...(input.devedor ? { devedor: pick(input.devedor, COB_DEVEDOR_FIELDS) } : {}),
    valor: {
      original: valor.original!,
      modalidadeAlteracao: valor.modalidadeAlteracao ?? 0,
      ...(valor.retirada ? { retirada: valor.retirada } : {}),
    },
    chave: input.chave!,
    ...optionalTexts(input),
  };
}

export function recebedorOf(company: Pick<Company, 'tax_id' | 'official_name' | 'trade_name' | 'name'>): Recebedor {
  const nome = company.official_name || company.name;
  if (company.tax_id.length === 11) return { cpf: company.tax_id, nome, ...RECEIVER_ADDRESS };
  return {
    cnpj: company.tax_id,
    nome,
    ...(company.trade_name ? { nomeFantasia: company.trade_name } : {}),
    ...RECEIVER_ADDRESS,
  };
}

export function cobvValorOfInput(valor: PixSchemas['CobVValor']): CobvValor {
  return {
    original: valor.original!,
    ...(valor.multa ? { multa: { modalidade: valor.multa.modalidade, valorPerc: valor.multa.valorPerc } } : {}),
    ...(valor.juros ? { juros: { modalidade: valor.juros.modalidade, valorPerc: valor.juros.valorPerc } } : {}),
    ...(valor.abatimento
      ? { abatimento: { modalidade: valor.abatimento.modalidade, valorPerc: valor.abatimento.valorPerc } }
      : {}),
    ...(valor.desconto ? { desconto: valor.desconto } : {}),
  };
}

export function cobvBodyOf(input: StandardInput, criacao: Date, recebedor: Recebedor): StoredCobvBody {
  return {
    calendario: {
      criacao: criacao.toISOString(),
      dataDeVencimento: input.calendario!.dataDeVencimento!,
      validadeAposVencimento: input.calendario?.validadeAposVencimento ?? DEFAULT_VALIDADE,
    },
    devedor: pick(input.devedor!, COBV_DEVEDOR_FIELDS),
    recebedor,
    valor: cobvValorOfInput(input.valor!),
    chave: input.chave!,
    ...optionalTexts(input),
  };
}

// The request a stored body answers (to merge a revision over it and check the result).
export function inputOfBody(body: StoredChargeBody): StandardInput {
  const { calendario, devedor, valor, chave, solicitacaoPagador, infoAdicionais } = body;
  const { criacao: _criacao, ...cal } = calendario;
  void _criacao;
  return {
    calendario: cal,
    ...(devedor ? { devedor } : {}),
    ...(valor ? { valor } : {}),
    ...(chave !== undefined ? { chave } : {}),
    ...(solicitacaoPagador !== undefined ? { solicitacaoPagador } : {}),
    ...(infoAdicionais !== undefined ? { infoAdicionais } : {}),
  };
}

// A revision merged over the current request: calendario and valor field by field, the
// other fields replaced when sent.
export function mergeRevision(current: StandardInput, revision: StandardInput): StandardInput {
  return {
    ...current,
    calendario: { ...current.calendario, ...revision.calendario },
    ...(revision.devedor !== undefined ? { devedor: revision.devedor } : {}),
    valor: { ...current.valor, ...revision.valor },
    ...(revision.chave !== undefined ? { chave: revision.chave } : {}),
    ...(revision.solicitacaoPagador !== undefined ? { solicitacaoPagador: revision.solicitacaoPagador } : {}),
    ...(revision.infoAdicionais !== undefined ? { infoAdicionais: revision.infoAdicionais } : {}),
  };
}

// Deep equality of two JSON values (key order ignored; a key holding undefined counts as absent).
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ea = Object.entries(a).filter(([, v]) => v !== undefined);
  const eb = new Map(Object.entries(b).filter(([, v]) => v !== undefined));
  if (ea.length !== eb.size) return false;
  return ea.every(([k, v]) => eb.has(k) && sameJson(v, eb.get(k)));
}
