// The standard's rules for the bodies of cob and cobv (what the schema cannot say): amounts,
// debtor tax ids, fines, interest, rebates and discounts, dates. Pure: no database. Each
// check returns the violations (field, message, value) of a body; an empty list is valid.
import type { FieldIssue } from '../../errors/errors';
import { endsAfterLastDate, isValidDate } from '../../lib/business-days';
import { dueChargeAmount } from '../../lib/due-charge';
import { cents, parseDecimalAmount, type Cents } from '../../lib/money';
import { isValidCnpj, isValidCpf } from '../../lib/taxid';
import type { CobvValor } from '../charge-model';

export interface Devedor {
  cpf?: string;
  cnpj?: string;
  nome?: string;
  email?: string;
  logradouro?: string;
  cidade?: string;
  uf?: string;
  cep?: string;
}

export interface InfoAdicional {
  nome: string;
  valor: string;
}

export interface Retirada {
  saque?: { valor: string; modalidadeAlteracao?: number; modalidadeAgente: string; prestadorDoServicoDeSaque: string };
  troco?: { valor: string; modalidadeAlteracao?: number; modalidadeAgente: string; prestadorDoServicoDeSaque: string };
}

export interface CobValorInput {
  original?: string;
  modalidadeAlteracao?: number;
  retirada?: Retirada;
}

// A cob or cobv request (create or revision) as the handlers pass it on.
export interface StandardInput {
  calendario?: { expiracao?: number; dataDeVencimento?: string; validadeAposVencimento?: number };
  devedor?: Devedor;
  loc?: { id: number };
  status?: string;
  valor?: CobValorInput & Partial<CobvValor>;
  chave?: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

export interface CobBody {
  calendario: { criacao: string; expiracao: number };
  devedor?: Devedor;
  valor: { original: string; modalidadeAlteracao: number; retirada?: Retirada };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

export interface CobvBody {
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  devedor: Devedor;
  recebedor: Record<string, string>;
  valor: CobvValor;
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

const issue = (field: string, message: string, value?: unknown): FieldIssue => ({
  field,
  message,
  ...(value !== undefined ? { value: typeof value === 'string' ? value : JSON.stringify(value) } : {}),
});

function amountOf(s: string | undefined): Cents | undefined {
  if (s === undefined) return undefined;
  const parsed = parseDecimalAmount(s);
  return parsed.ok ? parsed.value : undefined;
}

export function checkDevedor(devedor: Devedor | undefined, required: boolean): FieldIssue[] {
  if (!devedor) return required ? [issue('devedor', 'devedor is required')] : [];
  const out: FieldIssue[] = [];
  if (devedor.cpf !== undefined && devedor.cnpj !== undefined)
    out.push(issue('devedor', 'devedor cannot carry both cpf and cnpj'));
  if (devedor.cpf !== undefined && !isValidCpf(devedor.cpf))
    out.push(issue('devedor.cpf', 'cpf is not a valid CPF', devedor.cpf));
  if (devedor.cnpj !== undefined && !isValidCnpj(devedor.cnpj))
    out.push(issue('devedor.cnpj', 'cnpj is not a valid CNPJ', devedor.cnpj));
  if (devedor.nome !== undefined && devedor.cpf === undefined && devedor.cnpj === undefined) {
    out.push(issue('devedor', 'devedor.nome requires devedor.cpf or devedor.cnpj'));
  }
  if ((devedor.cpf !== undefined || devedor.cnpj !== undefined) && !devedor.nome?.trim())
    out.push(issue('devedor.nome', 'nome is required with cpf or cnpj'));
  return out;
}

export function checkTexts(input: StandardInput): FieldIssue[] {
  const out: FieldIssue[] = [];
  if (input.solicitacaoPagador !== undefined && input.solicitacaoPagador.length > 140) {
    out.push(issue('solicitacaoPagador', 'at most 140 characters'));
  }
  if (input.infoAdicionais !== undefined) {
    if (input.infoAdicionais.length > 50) out.push(issue('infoAdicionais', 'at most 50 items'));
    input.infoAdicionais.forEach((i, n) => {
      if (!i.nome?.trim()) out.push(issue(`infoAdicionais[${n}].nome`, 'nome must not be empty'));
    });
  }
  if (input.chave !== undefined && (input.chave.length === 0 || input.chave.length > 77))
    out.push(issue('chave', 'chave must have 1 to 77 characters', input.chave));
  return out;
}

// What the payer pays for a cob value: original plus the withdrawal (saque/troco) amount.
export function cobTotal(valor: CobBody['valor']): Cents {
  const retirada = valor.retirada?.saque ?? valor.retirada?.troco;
  return cents((amountOf(valor.original) ?? 0) + (amountOf(retirada?.valor) ?? 0));
}

export function checkCobValor(valor: CobValorInput | undefined): FieldIssue[] {
  if (!valor || valor.original === undefined) return [issue('valor.original', 'valor.original is required')];
  const out: FieldIssue[] = [];
  const original = amountOf(valor.original);
  if (original === undefined)
    return [issue('valor.original', 'valor.original must be a decimal like "10.00"', valor.original)];
  const { saque, troco } = valor.retirada ?? {};
  if (saque && troco) out.push(issue('valor.retirada', 'retirada carries either saque or troco'));
  // The standard: with a withdrawal (saque or troco) the purchase amount cannot be changed.
  if ((saque || troco) && valor.modalidadeAlteracao === 1) {
    out.push(
      issue('valor.modalidadeAlteracao', 'valor.modalidadeAlteracao must be 0 when valor.retirada is present', '1'),
    );
  }
  if (saque) {
    if (original !== 0)
      out.push(issue('valor.original', 'valor.original must be 0.00 in a saque charge', valor.original));
    // 0.00 is allowed only when the payer chooses the amount (modalidadeAlteracao 1).
    if (!amountOf(saque.valor) && !(saque.modalidadeAlteracao === 1 && amountOf(saque.valor) === 0)) {
      out.push(
        issue(
          'valor.retirada.saque.valor',
          'the withdrawal amount must be above zero unless the payer may change it (modalidadeAlteracao 1)',
          saque.valor,
        ),
      );
    }
  } else if (original === 0) {
    out.push(issue('valor.original', 'valor.original must be above zero', valor.original));
  }
  if (troco) {
    if (!amountOf(troco.valor) && !(troco.modalidadeAlteracao === 1 && amountOf(troco.valor) === 0)) {
      out.push(
        issue(
          'valor.retirada.troco.valor',
          'the change amount must be above zero unless the payer may change it (modalidadeAlteracao 1)',
          troco.valor,
        ),
      );
    }
  }
  return out;
}

export function checkCobCreate(input: StandardInput): FieldIssue[] {
  const out: FieldIssue[] = [];
  if (input.calendario?.expiracao !== undefined && input.calendario.expiracao <= 0) {
    out.push(issue('calendario.expiracao', 'expiracao must be above zero', String(input.calendario.expiracao)));
  }
  if (input.chave === undefined) out.push(issue('chave', 'chave is required'));
  out.push(...checkCobValor(input.valor), ...checkDevedor(input.devedor, false), ...checkTexts(input));
  return out;
}

// Rules of a cobv's amounts (original, multa, juros, abatimento, desconto) against its due date.
export function checkCobvValor(valor: Partial<CobvValor> | undefined, dueDate: string, validity: number): FieldIssue[] {
  if (!valor || valor.original === undefined) return [issue('valor.original', 'valor.original is required')];
  const original = amountOf(valor.original);
  if (!original) return [issue('valor.original', 'valor.original must be above zero', valor.original)];
  const out: FieldIssue[] = [];
  const percentOk = (s: string) => Number(s) < 100;
  if (valor.multa && valor.multa.modalidade === 2 && !percentOk(valor.multa.valorPerc))
    out.push(issue('valor.multa.valorPerc', 'a percentage fine must be below 100', valor.multa.valorPerc));
  if (valor.abatimento) {
    const { modalidade, valorPerc } = valor.abatimento;
    if (modalidade === 1 ? (amountOf(valorPerc) ?? Infinity) >= original : !percentOk(valorPerc)) {
      out.push(
        issue('valor.abatimento.valorPerc', 'the rebate must be below the original value (or 100 percent)', valorPerc),
      );
    }
  }
  const d = valor.desconto;
  if (d) {
    const fixed = d.modalidade === 1 || d.modalidade === 2;
    if (fixed) {
      if (d.valorPerc !== undefined)
        out.push(issue('valor.desconto.valorPerc', 'modalidade 1 and 2 take descontoDataFixa, not valorPerc'));
      if (!d.descontoDataFixa?.length)
        out.push(issue('valor.desconto.descontoDataFixa', 'modalidade 1 and 2 need a non-empty descontoDataFixa'));
    } else {
      if (d.descontoDataFixa !== undefined)
        out.push(issue('valor.desconto.descontoDataFixa', 'modalidade 3 to 6 take valorPerc, not descontoDataFixa'));
      if (d.valorPerc === undefined) out.push(issue('valor.desconto.valorPerc', 'modalidade 3 to 6 need valorPerc'));
    }
    const values = fixed
      ? (d.descontoDataFixa ?? []).map((i) => i.valorPerc)
      : d.valorPerc !== undefined
        ? [d.valorPerc]
        : [];
    for (const v of values) {
      const tooBig =
        d.modalidade === 1 || d.modalidade === 3 || d.modalidade === 4
          ? (amountOf(v) ?? Infinity) >= original
          : !percentOk(v);
      if (tooBig) out.push(issue('valor.desconto', 'a discount must be below the original value (or 100 percent)', v));
    }
    for (const item of d.descontoDataFixa ?? []) {
      if (!isValidDate(item.data))
        out.push(issue('valor.desconto.descontoDataFixa.data', 'not a calendar date', item.data));
      else if (item.data > dueDate)
        out.push(
          issue('valor.desconto.descontoDataFixa.data', 'a discount date cannot be after dataDeVencimento', item.data),
        );
    }
    const dates = (d.descontoDataFixa ?? []).map((i) => i.data);
    if (new Set(dates).size !== dates.length)
      out.push(issue('valor.desconto.descontoDataFixa', 'each date may appear once'));
  }
  if (out.length === 0) {
    // The arithmetic itself (modalities, formats) on the due date.
    const computed = dueChargeAmount({
      original,
      dueDate,
      paymentDate: dueDate,
      validadeAposVencimento: validity,
      ...(valor.multa ? { multa: valor.multa } : {}),
      ...(valor.juros ? { juros: valor.juros } : {}),
      ...(valor.abatimento ? { abatimento: valor.abatimento } : {}),
      ...(valor.desconto ? { desconto: valor.desconto } : {}),
    });
    if (!computed.ok) out.push(issue('valor', computed.reason));
  }
  return out;
}

export function checkCobvCreate(input: StandardInput, today: string): FieldIssue[] {
  const out: FieldIssue[] = [];
  const due = input.calendario?.dataDeVencimento;
  const validity = input.calendario?.validadeAposVencimento ?? 30;
  if (!due) out.push(issue('calendario.dataDeVencimento', 'dataDeVencimento is required'));
  else if (!isValidDate(due)) out.push(issue('calendario.dataDeVencimento', 'not a calendar date', due));
  else if (due < today)
    out.push(issue('calendario.dataDeVencimento', 'dataDeVencimento cannot be before the creation date', due));
  if (validity < 0)
    out.push(
      issue('calendario.validadeAposVencimento', 'validadeAposVencimento cannot be below zero', String(validity)),
    );
  const beyondCalendar = !!due && isValidDate(due) && endsAfterLastDate(due, validity);
  if (beyondCalendar)
    out.push(
      issue('calendario.validadeAposVencimento', 'the charge would stay payable after 9999-12-31', String(validity)),
    );
  if (input.chave === undefined) out.push(issue('chave', 'chave is required'));
  const devedorIssues = checkDevedor(input.devedor, true);
  if (input.devedor && input.devedor.cpf === undefined && input.devedor.cnpj === undefined)
    devedorIssues.push(issue('devedor', 'devedor needs cpf or cnpj'));
  out.push(...devedorIssues, ...checkTexts(input));
  if (due && isValidDate(due) && !beyondCalendar) out.push(...checkCobvValor(input.valor, due, validity));
  return out;
}
