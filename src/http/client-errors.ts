// Requests Node's HTTP parser refuses before Koa sees them (a request line or headers over the
// size limit, bytes that are no HTTP): answered in the called API's error format like every
// other 4xx, not with Node's empty 431/400. The path is read from what was received.
import type { Duplex } from 'node:stream';
import { DomainError } from '../errors/errors';
import { apiOfPath } from './app';
import { errorResponseOf } from './render';

type ParserError = Error & { code?: string; rawPacket?: Buffer };

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

export function answerClientError(error: ParserError, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const received = error.rawPacket?.toString('latin1') ?? '';
  const lineEnd = received.indexOf('\r\n');
  const path = (lineEnd < 0 ? received : received.slice(0, lineEnd)).split(' ')[1] ?? '';
  const requestLine = lineEnd < 0 ? received.length : lineEnd;
  const refused = refusalOf(error.code, requestLine > MAX_URI_LINE);
  const pathname = path.split('?')[0] ?? '';
  const { contentType, body } = errorResponseOf(apiOfPath(pathname) ?? 'platform', refused, { path: pathname });
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${refused.status} ${REASONS[refused.status]}\r\n` +
      `Content-Type: ${contentType}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}

// Node limits the request line and headers together (16 kB); a request line over 8 kB (the
// common URI limit of servers and proxies) makes the URI what is too long.
const MAX_URI_LINE = 8192;

function refusalOf(code: string | undefined, longRequestLine: boolean): DomainError {
  if (code === 'HPE_HEADER_OVERFLOW' && longRequestLine)
    return new DomainError('URI_TOO_LONG', 414, 'The request URI is too long');
  if (code === 'HPE_HEADER_OVERFLOW')
    return new DomainError('HEADERS_TOO_LARGE', 431, 'The request header fields are too large');
  return new DomainError('MALFORMED_REQUEST', 400, 'The request is not valid HTTP');
}
