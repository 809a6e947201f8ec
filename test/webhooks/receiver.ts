// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body and
// headers) and answers what the test scripts (status, delay). Bounded: it refuses to keep
// more than `max` requests.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordEvent } from '../../src/events/events.repository';
import type { TestServer } from '../support/server';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export type Responder = (req: Received, index: number) => { status: number; delayMs?: number } | number;

export interface Receiver {
  url: string;
  requests: Received[];
  respond: Responder;
  // Resolves once `count` requests have arrived (or rejects after timeoutMs).
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  // Keep the test events (X-Pixgate-Test: 1, e.g. the one every new webhook gets) with the
  // others; by default they are answered 200 and not kept, so that a test counts the events
  // it caused.
  keepTests?: boolean;
}

export async function startReceiver(
  respond: Responder = () => 200,
  max = 500,
  options: ReceiverOptions = {},
): Promise<Receiver> {
  const requests: Received[] = [];
  const state = { respond };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
        at: Date.now(),
      };
      if (!options.keepTests && req.headers['x-pixgate-test'] === '1') {
        res.statusCode = 200;
        return res.end();
      }
      if (requests.length >= max) {
        res.statusCode = 429;
        return res.end();
      }
      requests.push(received);
      const answer = state.respond(received, requests.length - 1);
      const { status, delayMs } = typeof answer === 'number' ? { status: answer, delayMs: 0 } : answer;
      if (delayMs) await sleep(delayMs);
      if (res.destroyed) return;
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get respond() {
      return state.respond;
    },
    set respond(r: Responder) {
      state.respond = r;
    },
    async waitFor(count: number, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`receiver got ${requests.length} requests, expected ${count}`);
        await sleep(10);
      }
      return requests;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

// Records an event the way the producing areas do: inside a transaction of the server.
export async function record(
  server: TestServer,
  companyId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<string> {
  return server.database.db
    .transaction()
    .execute(async (trx) =>
      recordEvent(trx, { companyId, type, payload, at: await server.services.clock.now(companyId, trx) }),
    );
}

// Runs the webhooks job until nothing is left to do right now.
export async function drain(server: TestServer, rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) await server.services.jobs.runNow('webhooks');
}
