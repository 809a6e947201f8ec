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

// The QR standard (ISO/IEC 18004) asks a light margin of 4 modules around the symbol; cameras
// misread codes with less against a busy background.
test('a 4-module quiet zone surrounds the symbol', async () => {
  const image = PNG.sync.read(await renderQrPng(BRCODE, 600));
  const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4]! < 128;
  const top = [...Array(image.height).keys()].find((y) => [...Array(image.width).keys()].some((x) => dark(x, y)))!;
  const left = [...Array(image.width).keys()].find((x) => dark(x, top))!;
  let run = 0;
  while (dark(left + run, top)) run++;
  const module = run / 7; // the top-left finder pattern is 7 modules wide
  assert.is(Math.round(left / module), 4);
  assert.is(Math.round(top / module), 4);
  const right = image.width - 1 - [...Array(image.width).keys()].reverse().find((x) => dark(x, top))!;
  assert.is(Math.round(right / module), 4);
});

test.run();
