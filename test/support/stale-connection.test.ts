// The test client sends a request again, once, when the kept-alive connection it was written
// on is closed by the server before any answer (the server's idle timer won the race), and
// never more than once.
import { createServer, type Server, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestClient } from './server';

const ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

// A server that answers the first request of a connection and drops the connection when a
// second request arrives on it (closeEvery: every connection is dropped at once).
async function serve(options: {
  closeEvery: boolean;
}): Promise<{ server: Server; url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket: Socket) => {
    connections++;
    let requests = 0;
    socket.on('data', (chunk) => {
      // A request's head and body may come in separate chunks: count request lines.
      const starts = String(chunk).match(/^(GET|POST) \S+ HTTP\/1\.1\r$/gm)?.length ?? 0;
      if (starts === 0) return;
      requests += starts;
      if (options.closeEvery || requests > 1) socket.destroy();
      else socket.write(ANSWER);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, connections: () => connections };
}

test('a request on a connection the server dropped is sent again on a new one', async () => {
  const { server, url, connections } = await serve({ closeEvery: false });
  try {
    const client = new TestClient(url);
    assert.is((await client.post('/a', { n: 1 })).text, 'ok');
    // The connection goes back to the pool a moment after the answer is read; a request sent
    // at once would open a second connection instead of reusing the first.
    await new Promise((ok) => setTimeout(ok, 50));
    // A POST: undici itself sends again only what is idempotent.
    assert.is((await client.post('/b', { n: 2 })).text, 'ok');
    assert.is(connections(), 2);
  } finally {
    server.close();
  }
});

test('a server that drops every connection is not asked a third time', async () => {
  const { server, url, connections } = await serve({ closeEvery: true });
  try {
    const failure = await new TestClient(url).get('/a').then(
      () => undefined,
      (error: Error) => error,
    );
    assert.ok(failure instanceof TypeError, 'the request fails');
    assert.is(connections(), 2);
  } finally {
    server.close();
  }
});

test.run();
