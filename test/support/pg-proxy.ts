// A TCP proxy between test servers and the machine's Postgres, to break the network the way
// production breaks it without touching the shared Postgres: `restart()` resets every
// connection and refuses new ones for a while (what a Postgres restart or failover looks like
// from the client), `partition()` lets every byte vanish without a FIN or reset, existing
// connections and new ones alike (a network cut), until `heal()`.
import { createServer, type Server, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PgProxy {
  // DATABASE_URL through the proxy.
  url: string;
  // Connections made through the proxy so far.
  readonly accepted: number;
  // Resets every connection, and refuses new ones for `downMs` (the listener is closed).
  restart(downMs: number): Promise<void>;
  // From now on nothing passes, in either direction, on any connection, old or new; a client
  // that gives up its connection meanwhile is not heard by Postgres (its session stays).
  partition(): void;
  // Ends the partition: every connection it cut is reset on both sides (both have given up on
  // it by then), and new connections pass again.
  heal(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  // Cut by a partition: nothing passes, and a close of the client is not passed on.
  cut: boolean;
}

export async function startPgProxy(target: string): Promise<PgProxy> {
  const to = new URL(target);
  const upstreamPort = Number(to.port || 5432);
  const pairs = new Set<Pair>();
  const held = new Set<Socket>();
  let partitioned = false;
  let accepted = 0;

  const onConnection = (client: Socket) => {
    accepted++;
    client.on('error', () => undefined);
    if (partitioned) {
      // Accepted by the kernel, then silence: the client's connect timeout must end it.
      held.add(client);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = new Socket();
    upstream.on('error', () => undefined);
    const pair: Pair = { client, upstream, cut: false };
    pairs.add(pair);
    const forget = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => (pair.cut ? client.destroy() : forget()));
    upstream.on('close', () => (pair.cut ? undefined : forget()));
    client.on('data', (chunk) => pair.cut || upstream.write(chunk));
    upstream.on('data', (chunk) => pair.cut || client.write(chunk));
    upstream.connect(upstreamPort, to.hostname);
  };

  let server: Server = createServer(onConnection);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);

  const listen = () =>
    new Promise<void>((ok, fail) => {
      server = createServer(onConnection);
      server.once('error', fail);
      server.listen(port, '127.0.0.1', ok);
    });

  const resetAll = () => {
    for (const { client, upstream } of pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
    for (const socket of held) socket.resetAndDestroy();
    held.clear();
  };

  return {
    url: proxied.toString(),
    get accepted() {
      return accepted;
    },
    async restart(downMs: number) {
      // close() stops accepting at once but calls back only once every connection is gone.
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      resetAll();
      await closed;
      await sleep(downMs);
      // The port is ours until another process takes it: a few tries cover a slow release.
      for (let attempt = 1; ; attempt++) {
        try {
          return await listen();
        } catch (error) {
          if (attempt === 20) throw error;
          await sleep(100);
        }
      }
    },
    partition() {
      partitioned = true;
      for (const pair of pairs) pair.cut = true;
    },
    heal() {
      partitioned = false;
      for (const pair of [...pairs].filter((p) => p.cut)) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream.resetAndDestroy();
      }
      for (const socket of held) socket.resetAndDestroy();
      held.clear();
    },
    async close() {
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      resetAll();
      await closed;
    },
  };
}
