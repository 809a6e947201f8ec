// One HTTP attempt of a delivery: POST the stored body with its headers, success being a
// 2xx answer within the timeout. Redirects are not followed. Outside sandbox mode the
// destination is checked again here, on the address the connection actually uses.
//
// The result says everything the delivery log keeps of the answer: status, headers, the first
// 8 KB of the body (read within the same timeout), or the failure classified (attempt-errors.ts).
// The caller records it; this file writes nothing.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  type AttemptFailure,
  blockedFailure,
  classifyError,
  type ErrorClass,
  statusFailure,
  timeoutFailure,
} from './attempt-errors';
import { checkedLookup } from './checked-lookup';
import { isPrivateAddress, literalAddress } from './url-guard';

// What is kept of an answer's body and headers.
export const RESPONSE_BODY_LIMIT = 8192;
export const RESPONSE_HEADER_LIMIT = 50;
export const HEADER_VALUE_LIMIT = 1024;

export interface AttemptResponse {
  statusCode: number;
  headers: Record<string, string>;
  // The first RESPONSE_BODY_LIMIT bytes, as UTF-8.
  body: string;
  // The body was longer, or still arriving when the attempt ended.
  bodyTruncated: boolean;
}

export interface Attempt {
  ok: boolean;
  // The answer's status (null without an answer).
  statusCode: number | null;
  // Time until the answer's status line, or until the failure.
  latencyMs: number;
  // Why it failed, in words (null: a 2xx answer).
  error: string | null;
  errorClass: ErrorClass | null;
  errorCode: string | null;
  response: AttemptResponse | null;
}

export interface SendOptions {
  url: URL;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}

export function failedAttempt(failure: AttemptFailure, latencyMs: number, response: AttemptResponse | null = null) {
  return {
    ok: false,
    statusCode: response?.statusCode ?? null,
    latencyMs,
    error: failure.reason,
    errorClass: failure.class,
    errorCode: failure.code,
    response,
  } satisfies Attempt;
}

// Postgres text and jsonb hold no NUL character.
const storable = (text: string) => text.replace(/\u0000/g, '\ufffd');

export function responseHeadersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers).slice(0, RESPONSE_HEADER_LIMIT)) {
    if (value === undefined) continue;
    out[storable(name)] = storable(Array.isArray(value) ? value.join(', ') : value).slice(0, HEADER_VALUE_LIMIT);
  }
  return out;
}

export async function send(options: SendOptions): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { url } = options;
  if (!options.allowPrivate) {
    const literal = literalAddress(url);
    if (literal && isPrivateAddress(literal)) return failedAttempt(blockedFailure(literal), elapsed());
  }
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    // Set once the status line arrived: the timer then ends the body's reading, not the attempt.
    let answered: ((truncated: boolean) => void) | undefined;
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
        answered = readAnswer(res, elapsed(), finish);
      },
    );
    const timer = setTimeout(() => {
      if (answered) answered(true);
      else finish(failedAttempt(timeoutFailure(options.timeoutMs), elapsed()));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return answered(true);
      finish(failedAttempt(classifyError(err, { host: url.host }), elapsed()));
    });
    req.end(options.body);
  });
}

// Reads the answer's body up to the limit; answers a function that ends the reading early
// (timeout, error) with what arrived.
function readAnswer(res: IncomingMessage, latencyMs: number, finish: (a: Attempt) => void) {
  const statusCode = res.statusCode ?? 0;
  const headers = responseHeadersOf(res);
  const chunks: Buffer[] = [];
  let size = 0;
  const done = (truncated: boolean) => {
    const body = storable(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'));
    const response = { statusCode, headers, body, bodyTruncated: truncated };
    const ok = statusCode >= 200 && statusCode < 300;
    finish(
      ok
        ? { ok, statusCode, latencyMs, error: null, errorClass: null, errorCode: null, response }
        : failedAttempt(statusFailure(statusCode), latencyMs, response),
    );
  };
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    // Enough kept: the rest is not read.
    if (size > RESPONSE_BODY_LIMIT) {
      done(true);
      res.destroy();
    }
  });
  res.on('end', () => done(false));
  res.on('error', () => done(true));
  res.on('aborted', () => done(true));
  return done;
}
