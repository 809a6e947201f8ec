// `pixgate listen`: forwards a company's events to a URL on this machine, as `stripe listen`
// does, for a pixgate the developer's machine can reach but that cannot reach it (a shared
// sandbox on a server). It reads GET /api/v1/events/stream (Server-Sent Events) with an appID
// and POSTs each event's body to the local URL with the headers a webhook delivery carries,
// X-Pixgate-Signature made with a secret of this session (printed at start, never sent to the
// server), so the receiver verifies it exactly as it verifies a registered webhook. The
// stream resumes after a cut where it stopped (Last-Event-ID).
import { randomBytes } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { hmacSignature, SIGNATURE_HEADER } from '../lib/webhook-hmac';

export interface ListenOptions {
  baseUrl: string;
  appId: string;
  forwardTo: URL;
  types: string[];
  // Where lines go (stdout); errors that end the command are thrown.
  print: (line: string) => void;
  // Ends the command (Ctrl-C).
  signal: AbortSignal;
}

// What the stream's pixgate.event messages carry (event-stream.service.ts).
interface StreamedEvent {
  id: string;
  type: string;
  isTest: boolean;
  body: string;
  headers: Record<string, string>;
}

// A refusal that retrying will not change (bad appID, missing scope, bad filter).
export class ListenError extends Error {}

const FORWARD_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 10_000;

export function newSessionSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

// What lasts across reconnections: the secret, where the stream stopped, what the server
// asked to wait before reconnecting.
interface Session {
  secret: string;
  lastEventId: string | undefined;
  announced: boolean;
  retryMs: number;
}

// Runs until the signal aborts (answers) or the server refuses the stream (throws ListenError).
export async function listen(options: ListenOptions): Promise<void> {
  const session: Session = { secret: newSessionSecret(), lastEventId: undefined, announced: false, retryMs: 1000 };
  let backoff = session.retryMs;
  while (!options.signal.aborted) {
    let waitMs = session.retryMs;
    try {
      await readStream(options, session);
      backoff = session.retryMs;
      if (!options.signal.aborted) options.print('The stream ended; reconnecting');
    } catch (error) {
      if (error instanceof ListenError) throw error;
      if (options.signal.aborted) return;
      waitMs = backoff;
      options.print(`Cannot reach ${options.baseUrl}: ${reasonOf(error)}; retrying in ${Math.ceil(waitMs / 1000)} s`);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
    await pause(waitMs, options.signal);
  }
}

// The local HTTP answer of a forwarded event, or why there was none.
export async function forward(options: ListenOptions, secret: string, event: StreamedEvent): Promise<void> {
  const headers = { ...event.headers, [SIGNATURE_HEADER]: hmacSignature(secret, event.body, unixNow()) };
  const started = performance.now();
  let outcome: string;
  try {
    const res = await fetch(options.forwardTo, {
      method: 'POST',
      headers,
      body: event.body,
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    outcome = `[${res.status}]`;
  } catch (error) {
    if (options.signal.aborted) return;
    outcome = `[ERROR ${reasonOf(error)}]`;
  }
  const ms = Math.round(performance.now() - started);
  const test = event.isTest ? ' (test)' : '';
  options.print(
    `${new Date().toISOString()}  --> ${event.type}${test} [${event.id}]  <-- ${outcome} POST ${options.forwardTo.href} (${ms} ms)`,
  );
}

// One connection to the stream, read to its end; each event forwarded before the next is read.
async function readStream(options: ListenOptions, session: Session): Promise<void> {
  const url = new URL('/api/v1/events/stream', options.baseUrl);
  for (const type of options.types) url.searchParams.append('type', type);
  const res = await fetch(url, {
    headers: {
      Authorization: options.appId,
      Accept: 'text/event-stream',
      ...(session.lastEventId ? { 'Last-Event-ID': session.lastEventId } : {}),
    },
    signal: options.signal,
  });
  if (!res.ok || !res.body) throw await refusal(res);
  const queue: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (message) => queue.push(message),
    onRetry: (ms) => (session.retryMs = ms),
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    for (let message = queue.shift(); message; message = queue.shift()) {
      if (message.event === 'pixgate.ready') announce(options, session);
      if (message.event !== 'pixgate.event') continue;
      await forward(options, session.secret, JSON.parse(message.data) as StreamedEvent);
      if (message.id) session.lastEventId = message.id;
    }
  }
}

// The first time: what is forwarded where, and the secret to verify with (printed once: it
// lives as long as this command). After a reconnection, one line.
function announce(options: ListenOptions, session: Session): void {
  if (session.announced) return options.print('Reconnected; continuing where the stream stopped');
  session.announced = true;
  const which = options.types.length ? options.types.join(', ') : 'every event';
  options.print(`Ready! Forwarding ${which} of ${options.baseUrl} to ${options.forwardTo.href}`);
  options.print(`Your webhook signing secret is ${session.secret} (^C to quit)`);
}

// Why the server refused the stream, in words: a ListenError when retrying cannot help.
async function refusal(res: Response): Promise<Error> {
  const text = await res.text().catch(() => '');
  let said = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') said = body.error;
  } catch {
    // not JSON: the text as it came
  }
  if (res.status === 401)
    return new ListenError(`the server refused the appID (401 ${said}): check PIXGATE_APP_ID or --app-id`);
  if (res.status === 403)
    return new ListenError(`the application may not read events (403 ${said}): it needs the scope EVENT_GET_LIST`);
  if (res.status === 404)
    return new ListenError(`${res.url} is not a pixgate with an event stream (404): check PIXGATE_URL or --url`);
  if (res.status >= 400 && res.status < 500 && res.status !== 408)
    return new ListenError(`the server refused the stream (${res.status}): ${said}`);
  return new Error(`HTTP ${res.status} ${said}`);
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, bad port...).
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  return (error as Error).message ?? String(error);
}

const unixNow = () => Math.floor(Date.now() / 1000);

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
