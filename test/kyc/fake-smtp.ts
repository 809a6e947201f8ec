// A minimal SMTP server for the tests (RFC 5321's happy path: EHLO/HELO, MAIL, RCPT, DATA,
// RSET, NOOP, QUIT; no TLS, no AUTH): it keeps what it received, and refuses recipients
// listed in `refuse` with 550 so the delivery's failure path can be exercised.
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface FakeSmtp {
  port: number;
  received: ReceivedMail[];
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    serve(socket, received, refuse);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    received,
    refuse,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}

function serve(socket: Socket, received: ReceivedMail[], refuse: Set<string>): void {
  let buffer = '';
  let mail: ReceivedMail | undefined;
  let data: string[] | undefined;
  const reply = (line: string) => socket.write(`${line}\r\n`);
  reply('220 fake.smtp.test ESMTP ready');
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (data) {
        if (line === '.') {
          received.push({ ...mail!, data: data.join('\r\n') });
          data = undefined;
          mail = undefined;
          reply('250 2.0.0 queued');
        } else data.push(line.startsWith('..') ? line.slice(1) : line);
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      const arg = /<([^>]*)>/.exec(line)?.[1] ?? '';
      if (verb === 'EHLO') reply('250-fake.smtp.test\r\n250 8BITMIME');
      else if (verb === 'HELO') reply('250 fake.smtp.test');
      else if (verb === 'MAIL') {
        mail = { from: arg, to: [], data: '' };
        reply('250 2.1.0 ok');
      } else if (verb === 'RCPT') {
        if (refuse.has(arg.toLowerCase())) reply('550 5.1.1 mailbox unavailable');
        else {
          mail?.to.push(arg);
          reply('250 2.1.5 ok');
        }
      } else if (verb === 'DATA') {
        data = [];
        reply('354 end data with <CR><LF>.<CR><LF>');
      } else if (verb === 'RSET') {
        mail = undefined;
        reply('250 2.0.0 ok');
      } else if (verb === 'NOOP') reply('250 2.0.0 ok');
      else if (verb === 'QUIT') {
        reply('221 2.0.0 bye');
        socket.end();
      } else reply('502 5.5.2 command not implemented');
    }
  });
}
