// The KYC HTML pages, in Portuguese: the merchant page behind an onboarding's link and the
// sandbox inbox of one-time code messages. Pure: what to show is computed by the services.
import type { KycChannel, KycCodeMessageRow, KycOnboardingRow, KycStatus } from '../db/schema';
import { formatBrasiliaDateTime } from '../lib/brasilia';
import { escapeHtml as e, htmlPage } from '../lib/html';
import type { RepresentativeWithChannels } from './kyc.repository';
import { emailConfirmed, phoneConfirmed } from './kyc.view';

// The seed: after a terminal state the final page redirects after 5 seconds.
export const REDIRECT_DELAY_SECONDS = 5;
export const TERMINAL_STATES: readonly KycStatus[] = ['SUBMITTED', 'APPROVED', 'REJECTED'];

const STATUS_TEXT: Record<KycStatus, string> = {
  PENDING: 'Em preenchimento: aguardando a confirmação dos representantes e o envio para análise.',
  SUBMITTED: 'Cadastro enviado para análise.',
  APPROVED: 'Cadastro aprovado.',
  REJECTED: 'Cadastro reprovado.',
};

// 45318764000168 -> 45.318.764/0001-68
export function formatCnpj(cnpj: string): string {
  return cnpj.length === 14
    ? `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`
    : cnpj;
}

// carla.ribeiro@x.com.br -> c***@x.com.br: the link is unguessable but may be forwarded.
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

// +5511965432187 -> +55 (11) *****-2187
export function maskPhone(phone: string): string {
  return /^\+55\d{10,11}$/.test(phone) ? `+55 (${phone.slice(3, 5)}) *****-${phone.slice(-4)}` : '***';
}

function maskCpf(cpf: string): string {
  return cpf.length === 11 ? `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**` : '***';
}

function confirmation(address: string | null, masked: string, confirmed: boolean): string {
  if (address === null) return '<span class="muted">não informado</span>';
  return `${e(masked)}<br>${confirmed ? '<span class="ok">confirmado</span>' : '<span class="no">não confirmado</span>'}`;
}

// Only an http(s) address is followed (the schema's format uri would allow javascript:).
export function safeRedirect(url: string | null): string | undefined {
  if (url === null) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function renderOnboardingPage(
  o: KycOnboardingRow,
  reps: RepresentativeWithChannels[],
  accountUserEmails: string[],
): string {
  const redirect = TERMINAL_STATES.includes(o.status) ? safeRedirect(o.redirect_url) : undefined;
  const rows = reps
    .map(
      (
        r,
      ) => `<tr><td>${e(r.name)}${r.target_administrator ? '<br><span class="muted">administrador exigido</span>' : ''}</td>
<td>${maskCpf(r.tax_id)}</td>
<td>${confirmation(r.email, r.email ? maskEmail(r.email) : '', emailConfirmed(r, accountUserEmails))}</td>
<td>${confirmation(r.phone, r.phone ? maskPhone(r.phone) : '', phoneConfirmed(r))}</td></tr>`,
    )
    .join('\n');
  const body = `<h1>Cadastro de ${e(o.trade_name)}</h1>
<p class="notice status-${o.status.toLowerCase()}">${STATUS_TEXT[o.status]}</p>
${
  redirect
    ? `<p class="redirect">Você será redirecionado em ${REDIRECT_DELAY_SECONDS} segundos. Se nada acontecer, <a href="${e(redirect)}">continue por aqui</a>.</p>`
    : ''
}
<h2>Empresa</h2>
<table>
<tr><th>Razão social</th><td>${e(o.official_name)}</td></tr>
<tr><th>Nome fantasia</th><td>${e(o.trade_name)}</td></tr>
<tr><th>CNPJ</th><td>${e(formatCnpj(o.tax_id))}</td></tr>
<tr><th>Identificador</th><td>${e(o.correlation_id)}</td></tr>
</table>
<h2>Representantes</h2>
${
  reps.length
    ? `<table>\n<tr><th>Nome</th><th>CPF</th><th>E-mail</th><th>Telefone</th></tr>\n${rows}\n</table>`
    : '<p class="muted">Nenhum representante cadastrado ainda.</p>'
}`;
  const head = redirect ? `<meta http-equiv="refresh" content="${REDIRECT_DELAY_SECONDS};url=${e(redirect)}">\n` : '';
  return htmlPage(`Cadastro de ${o.trade_name}`, body, head);
}

const CHANNEL_TEXT: Record<KycChannel, string> = {
  EMAIL: 'E-mail',
  PHONE: 'Telefone (aplicativo de mensagens)',
};
const MESSAGE_STATUS_TEXT: Record<KycCodeMessageRow['status'], string> = {
  PENDING: 'na fila de envio',
  SENT: 'entregue ao servidor de envio',
  FAILED: 'não entregue',
};

// dd/mm/aaaa hh:mm:ss on the Brasília clock, the time of every page
function formatInstant(d: Date): string {
  return `${formatBrasiliaDateTime(d)} (horário de Brasília)`;
}

export function renderInboxPage(address: string | undefined, messages: KycCodeMessageRow[]): string {
  const form = `<form method="get" action="/api/v1/sandbox/kyc/inbox">
<label>E-mail ou telefone <input name="address" maxlength="320" value="${e(address ?? '')}"></label>
<button type="submit">Ver mensagens</button>
</form>`;
  const list = messages
    .map(
      (m) => `<article class="message">
<h3>${e(m.subject)}</h3>
<p class="muted">${CHANNEL_TEXT[m.channel]} · ${formatInstant(m.created_at)} · ${MESSAGE_STATUS_TEXT[m.status]}</p>
<pre>${e(m.body ?? '(texto não guardado após a entrega)')}</pre>
</article>`,
    )
    .join('\n');
  const results =
    address === undefined
      ? ''
      : `<h2>Mensagens para ${e(address)}</h2>\n${list || '<p class="muted">Nenhuma mensagem para este endereço.</p>'}`;
  const body = `<h1>Caixa de entrada do sandbox</h1>
<p>Os códigos de confirmação enviados aos representantes aparecem aqui, como chegariam por e-mail ou pelo aplicativo de mensagens.</p>
${form}
${results}`;
  return htmlPage('Caixa de entrada do sandbox', body);
}
