// `pixgate listen` as a child process, through the package's bin (bin/pixgate.mjs), its output
// read line by line; and a raw reader of the event stream for the server-side tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = resolve(ROOT, 'bin/pixgate.mjs');

export interface Command {
  child: ChildProcess;
  out: string[];
  err: string[];
  // Resolves with the first stdout line matching, rejects when the command exits first.
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export function pixgate(args: string[], env: Record<string, string>): Command {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  const waiting = new Set<() => void>();
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      into.push(...lines);
      for (const check of [...waiting]) check();
    };
  };
  child.stdout!.on('data', collect(out));
  child.stderr!.on('data', collect(err));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const check of [...waiting]) check();
  });
  return {
    child,
    out,
    err,
    exited,
    line(pattern, timeoutMs = 20_000) {
      return new Promise((ok, fail) => {
        const check = () => {
          const match = out.map((l) => pattern.exec(l)).find((m) => m);
          if (!match && !done) return;
          waiting.delete(check);
          clearTimeout(timer);
          if (match) ok(match);
          else fail(new Error(`pixgate exited before printing ${pattern}:\n${out.join('\n')}\n${err.join('\n')}`));
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          fail(new Error(`pixgate printed no ${pattern} in ${timeoutMs} ms:\n${out.join('\n')}\n${err.join('\n')}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    async stop() {
      if (!done) child.kill('SIGINT');
      return exited;
    },
  };
}

// A stream opened with fetch, its messages parsed as they come.
export interface RawStream {
  status: number;
  headers: Headers;
  text: string;
  // The next message of this type (the ones before it of other types are passed over).
  next(event: string, timeoutMs?: number): Promise<EventSourceMessage>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string>): Promise<RawStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  if (!res.ok) return { status: res.status, headers: res.headers, text: await res.text(), next: never, close() {} };
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => queue.push(m) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  return {
    status: res.status,
    headers: res.headers,
    text: '',
    async next(event, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const at = queue.findIndex((m) => m.event === event);
        if (at >= 0) return queue.splice(0, at + 1).pop()!;
        if (Date.now() > until) throw new Error(`no ${event} message within ${timeoutMs} ms`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before a ${event} message`);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    },
    close: () => abort.abort(),
  };
}

const never = () => Promise.reject(new Error('the stream did not open'));
