// The standard's rules for the bodies of cob and cobv (what the schema cannot say): amounts,
// debtor tax ids, fines, interest, rebates and discounts, dates. Pure: no database. Each
// check returns the violations (field, message, value) of a body; an empty list is valid.
import type { FieldIssue } from '../../errors/errors';
import { endsAfterLastDate, isValidDate } from '../../lib/business-days';
import type { ChargeKind } from '../../db/schema';
import { isValidTxid } from '../../lib/ids';
import { dueChargeAmount, type CobvDesconto } from '../../lib/due-charge';
import { cents, parseDecimalAmount, type Cents } from '../../lib/money';
import { isValidCnpj, isValidCpf } from '../../lib/taxid';
import { withdrawalOf, type PixSchemas, type StoredCobBody } from '../../db/documents/charge-body';

type S = PixSchemas;

// A debtor as any of the requests may send it (cpf or cnpj, with the cobv's address and
// e-mail): every field optional, for the rules to say which are missing.
export type Devedor = Partial<
  S['PessoaFisica'] & S['PessoaJuridica'] & S['DadosComplementaresPessoa'] & { email: string }
>;

// A cob or cobv request (create or revision, CobSolicitada, CobVSolicitada, CobRevisada or
// CobVRevisada) as the handlers pass it on: every field of the four, each optional (the rules
// say which are required for which kind).
export type StandardInput = Omit<S['CobRevisada'] & S['CobVRevisada'], 'calendario' | 'devedor' | 'valor'> & {
  calendario?: Partial<S['CobExpiracao'] & S['CobDataDeVencimento']>;
  devedor?: NonNullable<S['DadosDevedor']['devedor']>;
  valor?: S['CobValor'] & S['CobVValor'];
};

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

// `required`: a due-date charge (cobv) must name its debtor; an immediate one (cob) need not.
export function checkDevedor(devedor: Devedor | undefined, { required }: { required: boolean }): FieldIssue[] {
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
export function cobTotal(valor: StoredCobBody['valor']): Cents {
  const { saque, troco } = withdrawalOf(valor);
  const retirada = saque ?? troco;
  return cents((amountOf(valor.original) ?? 0) + (amountOf(retirada?.valor) ?? 0));
}

export function checkCobValor(valor: S['CobValor'] | undefined): FieldIssue[] {
  if (!valor || valor.original === undefined) return [issue('valor.original', 'valor.original is required')];
  const out: FieldIssue[] = [];
  const original = amountOf(valor.original);
  if (original === undefined)
    return [issue('valor.original', 'valor.original must be a decimal like "10.00"', valor.original)];
  const { saque, troco } = withdrawalOf(valor);
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
  out.push(...checkCobValor(input.valor), ...checkDevedor(input.devedor, { required: false }), ...checkTexts(input));
  return out;
}

// Rules of a cobv's amounts (original, multa, juros, abatimento, desconto) against its due date.
export function checkCobvValor(valor: S['CobVValor'] | undefined, dueDate: string, validity: number): FieldIssue[] {
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
  const d: CobvDesconto | undefined = valor.desconto;
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
  const devedor: Devedor | undefined = input.devedor;
  const devedorIssues = checkDevedor(devedor, { required: true });
  if (devedor && devedor.cpf === undefined && devedor.cnpj === undefined)
    devedorIssues.push(issue('devedor', 'devedor needs cpf or cnpj'));
  out.push(...devedorIssues, ...checkTexts(input));
  if (due && isValidDate(due) && !beyondCalendar) out.push(...checkCobvValor(input.valor, due, validity));
  return out;
}

// The txid a PUT names: the first rule of PUT, answered alone before anything is read.
export function checkTxid(txid: string): FieldIssue[] {
  return isValidTxid(txid) ? [] : [issue('txid', 'txid must have 26 to 35 letters and digits', txid)];
}

// The body's rules for its kind, a cobv's dates against `creationDay` (the Brasília day the
// charge is, or was first, created): every rule of a cob or cobv request that needs no
// database, for PUT's two paths (the single-statement creation and the transaction) and PATCH.
export function checkStandardBody(kind: ChargeKind, input: StandardInput, creationDay: string): FieldIssue[] {
  return kind === 'cob' ? checkCobCreate(input) : checkCobvCreate(input, creationDay);
}
