import { test } from 'uvu';
import * as assert from 'uvu/assert';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { qrPngDataUri, renderQrPng } from '../../src/lib/qr-image';

// A BR Code-like dynamic payload (merchant name with an accent-free ASCII string, CRC at the end).
const BRCODE =
  '00020101021226880014br.gov.bcb.pix2566qrcodes.pixgate.example/v2/cobv/9d36b84fc70b478fb95c12729b90ca25' +
  '5204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***63041D3D';

function decode(png: Buffer): { width: number; height: number; text: string | null; bytes: number[] } {
  const image = PNG.sync.read(png);
  const result = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return {
    width: image.width,
    height: image.height,
    text: result ? result.data : null,
    bytes: result?.binaryData ?? [],
  };
}

test('renders a 600 px PNG that decodes back to the exact input', async () => {
  const png = await renderQrPng(BRCODE, 600);
  assert.equal([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]); // PNG signature
  const { width, height, text, bytes } = decode(png);
  assert.is(width, 600);
  assert.is(height, 600);
  assert.is(text, BRCODE);
  assert.equal(bytes, [...Buffer.from(BRCODE, 'utf8')]); // byte for byte
});

test('other sizes are exact too', async () => {
  for (const size of [200, 333, 1024]) {
    const { width, text } = decode(await renderQrPng(BRCODE, size));
    assert.is(width, size);
    assert.is(text, BRCODE);
  }
});

test('data URI wraps the same PNG', async () => {
  const uri = await qrPngDataUri(BRCODE, 300);
  assert.ok(uri.startsWith('data:image/png;base64,'));
  const png = Buffer.from(uri.slice('data:image/png;base64,'.length), 'base64');
  assert.equal(png, await renderQrPng(BRCODE, 300));
  assert.is(decode(png).text, BRCODE);
});

test.run();
