// One HTTP attempt of a delivery: POST the stored body with its headers, success being a
// 2xx answer within the timeout. Redirects are not followed. Outside sandbox mode the
// destination is checked again here, on the address the connection actually uses.
//
// The result says everything the delivery log keeps of the answer: status, headers, the first
// 8 KB of the body (read within the same timeout), or the failure classified (attempt-errors.ts).
// The caller records it; this file writes nothing.
//
// An https receiver is called over mutual TLS when the caller passes `tls`: pixgate presents its
// client certificate, verifies the receiver's against the system's CAs and the company's bundle,
// and refuses a receiver that asked no client certificate before anything is sent
// (src/tls/webhook-tls.service.ts). The attempt then keeps what the handshake said.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AttemptTls } from '../db/schema';
import {
  connectReceiver,
  describeTlsError,
  NO_CERTIFICATE_REQUEST,
  type ReceiverConnection,
  type ReceiverTls,
} from '../tls/webhook-tls.service';
import {
  type AttemptFailure,
  blockedFailure,
  classifyError,
  type ErrorClass,
  type FailureContext,
  knownTlsReason,
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
  // The handshake, for an attempt over mutual TLS (null otherwise).
  tls: AttemptTls | null;
}

export interface SendOptions {
  url: URL;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  // Call an https receiver over mutual TLS with these (the company's: webhook-tls.service.ts).
  tls?: ReceiverTls;
}

export function failedAttempt(
  failure: AttemptFailure,
  latencyMs: number,
  response: AttemptResponse | null = null,
  tls: AttemptTls | null = null,
) {
  return {
    ok: false,
    statusCode: response?.statusCode ?? null,
    latencyMs,
    error: failure.reason,
    errorClass: failure.class,
    errorCode: failure.code,
    response,
    tls,
  } satisfies Attempt;
}

// Why a connection over mutual TLS failed: OpenSSL's own reasons when they are specific (the
// receiver's certificate, an alert naming ours), else what the handshake tells (the receiver
// asked no client certificate, it closed the connection on receiving ours), else the network's.
export function mtlsFailure(err: unknown, context: FailureContext, connection?: ReceiverConnection): AttemptFailure {
  const e = (err ?? {}) as NodeJS.ErrnoException;
  const code = typeof e.code === 'string' ? e.code : null;
  const message = (e.message || String(err)).slice(0, 500);
  if (code && knownTlsReason(code, message)) return classifyError(err, context);
  const words = describeTlsError(err, connection);
  if (code === NO_CERTIFICATE_REQUEST) return { class: 'TLS', code, reason: `TLS: ${words}` };
  if (words) return { class: 'TLS', code, reason: `TLS: ${words} (${message})` };
  return classifyError(err, context);
}

// Plain http receivers keep their connections between deliveries (a handshake each time
// would cost more than the delivery), at most PER_RECEIVER_SOCKETS to one origin. Outside
// sandbox mode the lookup is the checked one: a connection goes to an address checked when it
// was made. Free sockets are closed before a receiver's own keep-alive timeout (Node reads its
// Keep-Alive header) and do not hold the process open.
const PER_RECEIVER_SOCKETS = 8;
const agents = new Map<string, HttpAgent>();

function keepAliveAgent(url: URL, lookup: { lookup?: typeof checkedLookup }): HttpAgent {
  const key = `${lookup.lookup ? 'checked' : 'any'} ${url.origin}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new HttpAgent({ keepAlive: true, maxSockets: PER_RECEIVER_SOCKETS, timeout: 30_000, ...lookup });
    agents.set(key, agent);
  }
  return agent;
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
  // Outside sandbox mode every name is resolved and checked when the connection is made.
  const lookup = options.allowPrivate ? {} : { lookup: checkedLookup };
  if (url.protocol === 'http:') return exchange(options, { agent: keepAliveAgent(url, lookup) }, elapsed);
  if (!options.tls) return exchange(options, { agent: false, ...lookup }, elapsed);
  let connection: ReceiverConnection;
  try {
    connection = await connectReceiver(url, options.tls, { timeoutMs: options.timeoutMs, ...lookup });
  } catch (err) {
    const asked = (err as NodeJS.ErrnoException).code === NO_CERTIFICATE_REQUEST ? false : null;
    const tls = { protocol: null, presentedCertificate: true, askedClientCertificate: asked };
    return failedAttempt(mtlsFailure(err, { host: url.host }), elapsed(), null, tls);
  }
  // No agent: the request runs on the connection whose handshake was checked.
  return exchange(options, { createConnection: () => connection.socket }, elapsed, connection);
}

// Sends the request and reads the answer within what is left of the timeout.
function exchange(
  options: SendOptions,
  transport: Pick<RequestOptions, 'agent' | 'lookup' | 'createConnection'>,
  elapsed: () => number,
  connection?: ReceiverConnection,
): Promise<Attempt> {
  const { url } = options;
  const tls: AttemptTls | null = connection
    ? {
        protocol: connection.protocol,
        presentedCertificate: connection.presentedCertificate,
        askedClientCertificate: connection.askedClientCertificate,
      }
    : null;
  const timeoutMs = Math.max(1, options.timeoutMs - elapsed());
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection?.socket.end();
      resolve({ ...attempt, tls });
    };
    // Set once the status line arrived: the timer then ends the body's reading, not the attempt.
    let answered: ((truncated: boolean) => void) | undefined;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
        ...transport,
      },
      (res: IncomingMessage) => {
        answered = readAnswer(res, elapsed(), finish);
      },
    );
    const timer = setTimeout(() => {
      if (answered) answered(true);
      else finish(failedAttempt(timeoutFailure(options.timeoutMs), elapsed()));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return answered(true);
      const context = { host: url.host };
      // A TLS 1.3 receiver refuses our certificate after the handshake: its alert came first.
      const failure = connection
        ? mtlsFailure(connection.lateError ?? err, context, connection)
        : classifyError(err, context);
      finish(failedAttempt(failure, elapsed()));
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
        ? { ok, statusCode, latencyMs, error: null, errorClass: null, errorCode: null, response, tls: null }
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
