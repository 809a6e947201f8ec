// What Node's HTTP parser refuses before Koa sees it (URI or headers over the size limit,
// bytes that are no HTTP) is answered in the called API's error format, with a body.
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});
test.after(async () => server.close());

// Sends raw bytes; answers the status, the content type and the parsed body.
async function raw(request: string): Promise<{ status: number; type: string; body: any }> {
  const { hostname, port } = new URL(server.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  const [head, body = ''] = text.split('\r\n\r\n');
  const status = Number(head!.split(' ')[1]);
  const type = /content-type: ([^\r\n;]+)/i.exec(head!)?.[1] ?? '';
  return { status, type, body: body ? JSON.parse(body) : undefined };
}

const LONG = 'x'.repeat(20_000);

test('a URI over the limit: 414 in each API format', async () => {
  const pix = await raw(`GET /pix/v2/cob/${LONG} HTTP/1.1\r\nHost: a\r\n\r\n`);
  assert.equal([pix.status, pix.type, pix.body.status], [414, 'application/problem+json', 414]);
  assert.match(pix.body.type, /^https:\/\/pix\.bcb\.gov\.br\/api\/v2\/error\//);
  assert.is(pix.body.detail, 'The request URI is too long');
  const platform = await raw(`GET /api/v1/charge/${LONG} HTTP/1.1\r\nHost: a\r\n\r\n`);
  assert.equal([platform.status, platform.type], [414, 'application/json']);
  assert.equal(platform.body, { error: 'The request URI is too long' });
});

test('headers over the limit: 431 in each API format', async () => {
  const pix = await raw(`GET /pix/v2/cob HTTP/1.1\r\nHost: a\r\nX-Big: ${LONG}\r\n\r\n`);
  assert.equal([pix.status, pix.type, pix.body.status], [431, 'application/problem+json', 431]);
  const platform = await raw(`GET /api/v1/charge HTTP/1.1\r\nHost: a\r\nX-Big: ${LONG}\r\n\r\n`);
  assert.equal([platform.status, platform.body], [431, { error: 'The request header fields are too large' }]);
});

test('bytes that are no HTTP: 400 with a body', async () => {
  const res = await raw('GET /api/v1/charge HTTP/1.1\r\nHost a\r\n\r\n');
  assert.equal([res.status, res.body], [400, { error: 'The request is not valid HTTP' }]);
});

test.run();
