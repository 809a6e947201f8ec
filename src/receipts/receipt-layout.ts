// Where everything of a receipt goes, in points, for both renderers (PDF and PNG): they draw
// the same list of boxes and texts, measured by the renderer's own font metrics (the same
// font file in both), so the picture and the document show the same receipt.
//
// Sizes: A4 (595.28 x 841.89 pt, a centred card, label and value side by side) and phone
// (360 pt wide, as tall as the content, label above value: readable once forwarded).
import { maskPixKey, shownTaxId } from '../lib/masking';
import type { ReceiptData, ReceiptParty } from './receipt-data';

export type ReceiptSize = 'a4' | 'phone';
export type FontWeight = 'regular' | 'bold';

export interface TextOp {
  kind: 'text';
  x: number;
  // Top of the line box.
  y: number;
  text: string;
  size: number;
  weight: FontWeight;
  color: string;
}
export interface RectOp {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
}
export type DrawOp = TextOp | RectOp;

export interface Layout {
  width: number;
  height: number;
  ops: DrawOp[];
}

// Width of a text in points at a font size, by the renderer's metrics.
export type Measure = (text: string, size: number, weight: FontWeight) => number;

export const A4 = { width: 595.28, height: 841.89 };
export const PHONE_WIDTH = 360;

const INK = '#1f2933';
const MUTED = '#5f6b7a';
const ACCENT = '#0b7a53';
const RULE = '#d9dee5';
const BAND = '#eef6f2';

const TITLES = {
  'pix-in': 'Comprovante de Pix recebido',
  'pix-out': 'Comprovante de Pix enviado',
  'pix-refund': 'Comprovante de devolução de Pix',
} as const;

// 123456 -> "R$ 1.234,56"
export function formatBrl(cents: number): string {
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${String(cents % 100).padStart(2, '0')}`;
}

// "25/11/2026 às 14:32:07" in Brasília time (the Pix arrangement's clock).
export function formatBrasilia(at: Date): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? '';
  return `${p('day')}/${p('month')}/${p('year')} às ${p('hour')}:${p('minute')}:${p('second')}`;
}

type Row = [label: string, value: string];
interface Section {
  title: string;
  rows: Row[];
}

function partyRows(party: ReceiptParty): Row[] {
  const rows: Row[] = [['Nome', party.name || 'Não informado']];
  if (party.taxId) {
    const shown = shownTaxId(party.taxId);
    rows.push([shown.label, shown.value]);
  }
  if (party.institution) rows.push(['Instituição', party.institution]);
  if (party.ispb) rows.push(['ISPB', party.ispb]);
  if (party.branch) rows.push(['Agência', party.branch]);
  if (party.account) rows.push(['Conta', party.account]);
  return rows;
}

export function sectionsOf(data: ReceiptData): Section[] {
  const transaction: Row[] = [[data.refund ? 'ID da devolução (RtrId)' : 'ID da transação (E2E)', data.endToEndId]];
  if (data.txid) transaction.push(['Identificador (txid)', data.txid]);
  if (data.description) transaction.push(['Descrição', data.description]);
  if (data.refund?.originalEndToEndId) transaction.push(['Pix original (E2E)', data.refund.originalEndToEndId]);
  if (data.refund) transaction.push(['Motivo da devolução', data.refund.reason]);
  const receiver = partyRows(data.receiver);
  if (data.key) receiver.push(['Chave Pix', maskPixKey(data.key.key, data.key.type)]);
  return [
    { title: 'Dados da transação', rows: transaction },
    { title: data.type === 'pix-refund' ? 'Quem devolveu' : 'Quem pagou', rows: partyRows(data.payer) },
    { title: data.type === 'pix-refund' ? 'Quem recebeu a devolução' : 'Quem recebeu', rows: receiver },
  ];
}

// Words on lines of at most `width` points; a word longer than a line is cut where it must be.
export function wrap(text: string, width: number, fit: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fit(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (fit(rest) > width && rest.length > 1) {
      let n = rest.length - 1;
      while (n > 1 && fit(rest.slice(0, n)) > width) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

interface Frame {
  left: number;
  width: number;
  stacked: boolean;
  measure: Measure;
  ops: DrawOp[];
  y: number;
}

function text(f: Frame, s: string, x: number, size: number, weight: FontWeight, color: string): void {
  f.ops.push({ kind: 'text', x, y: f.y, text: s, size, weight, color });
}

function header(f: Frame, data: ReceiptData): void {
  const centre = (s: string, size: number, weight: FontWeight) => f.left + (f.width - f.measure(s, size, weight)) / 2;
  f.ops.push({ kind: 'rect', x: f.left, y: f.y, width: f.width, height: 118, color: BAND });
  f.y += 16;
  const title = TITLES[data.type];
  text(f, title, centre(title, 15, 'bold'), 15, 'bold', INK);
  f.y += 28;
  const amount = formatBrl(data.value);
  text(f, amount, centre(amount, 26, 'bold'), 26, 'bold', ACCENT);
  f.y += 38;
  const when = `${formatBrasilia(data.at)} (horário de Brasília)`;
  text(f, when, centre(when, 9.5, 'regular'), 9.5, 'regular', MUTED);
  f.y += 52;
}

function row(f: Frame, [label, value]: Row): void {
  const labelWidth = f.stacked ? f.width : 150;
  const valueLeft = f.stacked ? f.left : f.left + labelWidth;
  const valueWidth = f.stacked ? f.width : f.width - labelWidth;
  text(f, label, f.left, 8.5, 'regular', MUTED);
  if (f.stacked) f.y += 12;
  for (const line of wrap(value, valueWidth, (s) => f.measure(s, 10.5, 'bold'))) {
    text(f, line, valueLeft, 10.5, 'bold', INK);
    f.y += 14;
  }
  f.y += f.stacked ? 6 : 4;
}

function section(f: Frame, s: Section): void {
  text(f, s.title.toUpperCase(), f.left, 9, 'bold', ACCENT);
  f.y += 14;
  f.ops.push({ kind: 'rect', x: f.left, y: f.y, width: f.width, height: 0.8, color: RULE });
  f.y += 8;
  for (const r of s.rows) row(f, r);
  f.y += 10;
}

function footer(f: Frame, generatedAt: Date): void {
  f.ops.push({ kind: 'rect', x: f.left, y: f.y, width: f.width, height: 0.8, color: RULE });
  f.y += 8;
  const note = `Comprovante gerado em ${formatBrasilia(generatedAt)} a partir do registro da transação no pixgate.`;
  for (const line of wrap(note, f.width, (s) => f.measure(s, 7.5, 'regular'))) {
    text(f, line, f.left, 7.5, 'regular', MUTED);
    f.y += 10;
  }
}

export function layoutReceipt(
  data: ReceiptData,
  options: { size: ReceiptSize; measure: Measure; generatedAt: Date },
): Layout {
  const phone = options.size === 'phone';
  const pageWidth = phone ? PHONE_WIDTH : A4.width;
  const cardWidth = phone ? PHONE_WIDTH - 40 : 440;
  const frame: Frame = {
    left: (pageWidth - cardWidth) / 2,
    width: cardWidth,
    stacked: phone,
    measure: options.measure,
    ops: [],
    y: phone ? 20 : 48,
  };
  header(frame, data);
  for (const s of sectionsOf(data)) section(frame, s);
  footer(frame, options.generatedAt);
  return { width: pageWidth, height: phone ? Math.ceil(frame.y + 20) : A4.height, ops: frame.ops };
}
