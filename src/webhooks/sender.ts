// One HTTP attempt of a delivery: POST the stored body with its headers, success being a
// 2xx answer within the timeout. Redirects are not followed. Outside sandbox mode the
// destination is checked again here, on the address the connection actually uses.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkedLookup, refusedLiteral } from './checked-lookup';

export interface Attempt {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  ok: boolean;
}

export interface SendOptions {
  url: URL;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}

export async function send(options: SendOptions): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { url } = options;
  const refused = options.allowPrivate ? undefined : refusedLiteral(url);
  if (refused) return { statusCode: null, latencyMs: elapsed(), error: refused, ok: false };
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      resolve(attempt);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: checkedLookup }),
      },
      (res: IncomingMessage) => {
        const statusCode = res.statusCode ?? null;
        // The answer's body is drained (not kept); the timer still bounds how long it may take.
        res.on('error', () => clearTimeout(timer));
        res.on('end', () => clearTimeout(timer));
        res.resume();
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        finish({ statusCode, latencyMs: elapsed(), error: null, ok });
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, latencyMs: elapsed(), error: `timeout after ${options.timeoutMs} ms`, ok: false });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      finish({ statusCode: null, latencyMs: elapsed(), error: describe(err), ok: false });
    });
    req.end(options.body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  const message = err.message || String(err);
  return (err.code && !message.includes(err.code) ? `${err.code}: ${message}` : message).slice(0, 500);
}
