// What mutual TLS needs of a request's connection: whether it is TLS, and the client
// certificate it presented (its RFC 8705 thumbprint and whether it chained to a trusted CA).
// Read once per connection: the requests a keep-alive connection carries reuse it.
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { ClientConnection } from '../tls/tls.types';
import type { KoaContext } from './types';

const PLAIN: ClientConnection = { tls: false };
const seen = new WeakMap<Socket, ClientConnection>();

export function connectionOf(koa: KoaContext): ClientConnection {
  const socket = koa.req.socket;
  let connection = seen.get(socket);
  if (!connection) {
    connection = read(socket);
    seen.set(socket, connection);
  }
  return connection;
}

function read(socket: Socket): ClientConnection {
  if (!(socket instanceof TLSSocket)) return PLAIN;
  const peer = socket.getPeerCertificate();
  if (!peer?.raw) return { tls: true, certificate: undefined };
  return {
    tls: true,
    certificate: {
      thumbprint: createHash('sha256').update(peer.raw).digest('base64url'),
      authorized: socket.authorized,
      verifyError: verifyErrorOf(socket.authorizationError),
    },
  };
}

// Node's types say authorizationError is an Error, but Node sets the verification's code
// (a string such as 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'); an Error (with a code) is read too.
function verifyErrorOf(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  return 'message' in error && typeof error.message === 'string' ? error.message : undefined;
}
