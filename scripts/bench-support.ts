// What the benchmarks (scripts/bench.ts, scripts/bench-ab.ts) share: one statement on a
// Postgres server, a database made and dropped for a run, CPU time from /proc, a median.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

// A connection that cannot be made within this fails the benchmark instead of hanging it.
const CONNECT_TIMEOUT_MS = 10_000;

// One statement on its own connection (a connection lost meanwhile fails the statement; its
// 'error' event, unheard, would end the process).
export async function adminQuery<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

// A new database on the server of `url`; answers its URL.
export async function createDatabase(url: string, name: string): Promise<string> {
  await adminQuery(url, `create database "${name}"`);
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await adminQuery(url, `drop database if exists "${name}" with (force)`);
}

// CPU seconds a process has used (user and system); 0 once it is gone.
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

// All of Postgres's processes together (its backends serve every server's connections).
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
