// QR code images (PNG) for BR Code payloads, rendered with the `qrcode` package.
import QRCode from 'qrcode';

// Renders text as a PNG QR code exactly `size` pixels wide (error correction M, the 4-module quiet zone the QR standard asks).
export async function renderQrPng(text: string, size: number): Promise<Buffer> {
  return QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 4,
    width: size,
  });
}

// Renders text as a `data:image/png;base64,...` URI of a PNG QR code `size` pixels wide.
export async function qrPngDataUri(text: string, size: number): Promise<string> {
  const png = await renderQrPng(text, size);
  return `data:image/png;base64,${png.toString('base64')}`;
}
