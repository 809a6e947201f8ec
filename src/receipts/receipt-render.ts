// The two renderers of a receipt layout: a PDF (pdfkit) and a PNG (@napi-rs/canvas), both
// with Noto Sans (@fontsource/noto-sans, SIL OFL: every Portuguese diacritic) embedded.
//
// Both libraries load on the first receipt, not at start-up: most processes never render one,
// and Skia's and fontkit's code and tables would sit in every server's resident memory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FontWeight, Layout, Measure } from './receipt-layout';

const require = createRequire(import.meta.url);

let fonts: Record<FontWeight, Buffer> | undefined;

function fontFiles(): Record<FontWeight, Buffer> {
  fonts ??= {
    regular: readFileSync(require.resolve('@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff')),
    bold: readFileSync(require.resolve('@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff')),
  };
  return fonts;
}

const FAMILY: Record<FontWeight, string> = { regular: 'ReceiptSans', bold: 'ReceiptSansBold' };

export interface PdfInfo {
  title: string;
  createdAt: Date;
}

type PdfDoc = InstanceType<typeof import('pdfkit')>;

// The PDF: one page of the layout's size, texts in the embedded (subset) font.
export async function renderPdf(build: (measure: Measure) => Layout, info: PdfInfo): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const files = fontFiles();
  // Measured on a document of its own, so the page takes the layout's height (phone size).
  const meter: PdfDoc = new PDFDocument({ autoFirstPage: false });
  meter.registerFont(FAMILY.regular, files.regular);
  meter.registerFont(FAMILY.bold, files.bold);
  const measure: Measure = (text, size, weight) => meter.font(FAMILY[weight]).fontSize(size).widthOfString(text);
  const layout = build(measure);
  const doc: PdfDoc = new PDFDocument({
    size: [layout.width, layout.height],
    margin: 0,
    info: { Title: info.title, Author: 'pixgate', Creator: 'pixgate', CreationDate: info.createdAt },
  });
  doc.registerFont(FAMILY.regular, files.regular);
  doc.registerFont(FAMILY.bold, files.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  for (const op of layout.ops) {
    if (op.kind === 'rect') doc.rect(op.x, op.y, op.width, op.height).fill(op.color);
    else
      doc.font(FAMILY[op.weight]).fontSize(op.size).fillColor(op.color).text(op.text, op.x, op.y, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

let canvasFonts = false;

// The PNG: the same layout at `scale` pixels per point on a white ground.
export async function renderPng(build: (measure: Measure) => Layout, scale: number): Promise<Buffer> {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  if (!canvasFonts) {
    const files = fontFiles();
    GlobalFonts.register(files.regular, FAMILY.regular);
    GlobalFonts.register(files.bold, FAMILY.bold);
    canvasFonts = true;
  }
  const probe = createCanvas(1, 1).getContext('2d');
  const measure: Measure = (text, size, weight) => {
    probe.font = `${size}px ${FAMILY[weight]}`;
    return probe.measureText(text).width;
  };
  const layout = build(measure);
  const canvas = createCanvas(Math.ceil(layout.width * scale), Math.ceil(layout.height * scale));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.scale(scale, scale);
  ctx.textBaseline = 'top';
  for (const op of layout.ops) {
    ctx.fillStyle = op.color;
    if (op.kind === 'rect') ctx.fillRect(op.x, op.y, op.width, op.height);
    else {
      ctx.font = `${op.size}px ${FAMILY[op.weight]}`;
      ctx.fillText(op.text, op.x, op.y);
    }
  }
  return canvas.encode('png');
}
