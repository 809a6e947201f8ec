// The webhook figures of `make bench` (issue 26): with a receiver on 127.0.0.1 that answers at
// once, (1) latency: sandbox payments at BENCH_WEBHOOK_RATE per second (50) for
// BENCH_WEBHOOK_SECONDS (5), from each payment's answer to its OPENPIX:CHARGE_COMPLETED
// webhook's arrival, p50 and p99, and how many charges' COMPLETED arrived before their
// CREATED (both webhooks on); (2) drain: BENCH_WEBHOOK_BACKLOG (1,000) deliveries piled up
// while the receiver holds its answers, then the rate at which they arrive once it answers.
// Targets (the issue's, checked by eye): p50 under 50 ms, p99 under 250 ms, drain at 500/s or
// more, no order broken.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 5);
const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 1000);

type Call = (method: string, path: string, body?: unknown, auth?: string) => Promise<any>;

interface Receiver {
  url: string;
  // Arrival time of each (event, charge correlationID).
  arrivals: Map<string, number>;
  // While held, answers wait for release().
  hold(): void;
  release(): void;
  count(event: string): number;
  close(): void;
}

async function receiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const counts = new Map<string, number>();
  let held: (() => void)[] | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = performance.now();
      // The test event each new webhook gets is not the bench's.
      if (req.headers['x-pixgate-test'] === '1') return res.end();
      const json = JSON.parse(body || '{}');
      const event = String(req.headers['x-pixgate-event'] ?? '');
      const id = json.charge?.correlationID;
      if (id && !arrivals.has(`${event} ${id}`)) {
        arrivals.set(`${event} ${id}`, at);
        counts.set(event, (counts.get(event) ?? 0) + 1);
      }
      if (held) held.push(() => res.end());
      else res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    hold: () => (held = []),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    count: (event) => counts.get(event) ?? 0,
    close: () => (server.closeAllConnections(), server.close()),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!done() && Date.now() < end) await sleep(2);
  return done();
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function latency(call: Call, appID: string, r: Receiver, run: string): Promise<void> {
  const total = RATE * SECONDS;
  const charges: { id: string; brCode: string }[] = [];
  for (let i = 0; i < total; i++) {
    const id = `${run}-lat-${i}`;
    const made = await call('POST', '/api/v1/charge', { correlationID: id, value: 100 }, appID);
    charges.push({ id, brCode: made.brCode });
  }
  const paidAt = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    charges.map(async (c, i) => {
      await sleep(Math.max(0, started + (i * 1000) / RATE - performance.now()));
      await call('POST', '/api/v1/sandbox/pay', { brCode: c.brCode, payer: { name: 'Ana', taxID: '52998224725' } });
      paidAt.set(c.id, performance.now());
    }),
  );
  const completed = (c: { id: string }) => r.arrivals.has(`OPENPIX:CHARGE_COMPLETED ${c.id}`);
  await until(() => charges.every(completed), 30_000);
  const latencies = charges
    .filter(completed)
    .map((c) => r.arrivals.get(`OPENPIX:CHARGE_COMPLETED ${c.id}`)! - paidAt.get(c.id)!);
  const overtaken = charges.filter(
    (c) =>
      (r.arrivals.get(`OPENPIX:CHARGE_CREATED ${c.id}`) ?? Infinity) >
      (r.arrivals.get(`OPENPIX:CHARGE_COMPLETED ${c.id}`) ?? -Infinity),
  ).length;
  console.log(
    `  latency, payment answer to webhook arrival (${latencies.length}/${total} at ${RATE}/s): ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
      `COMPLETED before CREATED: ${overtaken} of ${total}`,
  );
}

async function drain(call: Call, appID: string, r: Receiver, run: string): Promise<void> {
  const before = r.count('OPENPIX:CHARGE_CREATED');
  r.hold();
  // Charges made in parallel (8 at a time): each one's CHARGE_CREATED delivery piles up.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < BACKLOG; i = next++)
        await call('POST', '/api/v1/charge', { correlationID: `${run}-drain-${i}`, value: 100 }, appID);
    }),
  );
  // Let the worker fan the backlog out while the receiver holds its answers.
  await sleep(1500);
  const started = performance.now();
  r.release();
  const done = await until(() => r.count('OPENPIX:CHARGE_CREATED') - before >= BACKLOG, 60_000);
  const seconds = (performance.now() - started) / 1000;
  const arrived = r.count('OPENPIX:CHARGE_CREATED') - before;
  console.log(
    `  drain of a backlog of ${BACKLOG}: ${arrived} arrived in ${seconds.toFixed(2)} s, ` +
      `${Math.round(arrived / seconds)}/s${done ? '' : ' (incomplete)'}`,
  );
}

// The figures on one running pixgate (reached through `call`), for a company made here.
export async function webhookFigures(label: string, call: Call): Promise<void> {
  const r = await receiver();
  try {
    const made = await call('POST', '/api/v1/sandbox/companies', { name: 'Webhook bench' });
    const appID = made.application.appID;
    for (const event of ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED'])
      await call('POST', '/api/v1/webhook', { webhook: { name: event, event, url: r.url } }, appID);
    console.log(`\nwebhooks, ${label} (receiver on 127.0.0.1, answers at once):`);
    const run = Math.random().toString(36).slice(2, 8);
    await latency(call, appID, r, run);
    await drain(call, appID, r, run);
  } finally {
    r.close();
  }
}
