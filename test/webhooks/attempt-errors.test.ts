// The classification of failed attempts (no server needed): Node's error codes to a class and
// a reason in words, TLS ones included; and the headers as the log keeps them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyError, statusFailure, timeoutFailure } from '../../src/webhooks/attempt-errors';
import { loggedHeaders } from '../../src/webhooks/delivery.service';

const at = { host: 'erp.example.com.br:443' };
const err = (code: string, message: string) => Object.assign(new Error(message), { code });

test('TLS failures say why: unknown authority, name mismatch, expiry, handshake refused, not TLS', () => {
  const cases: [string, string, RegExp][] = [
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', /not signed by a known authority/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', /self-signed authority/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', /is self-signed/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", /name mismatch/],
    ['CERT_HAS_EXPIRED', 'certificate has expired', /has expired/],
    ['CERT_NOT_YET_VALID', 'certificate is not yet valid', /not valid yet/],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'sslv3 alert handshake failure', /refused the handshake/],
    ['EPROTO', 'write EPROTO ...:SSL routines:ssl3_get_record:wrong version number:...', /does not speak TLS/],
    [
      'EPROTO',
      'write EPROTO ...:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:...',
      /requires a client certificate/,
    ],
    ['ERR_SSL_SOMETHING_NEW', 'some new failure', /^TLS: the handshake failed/],
  ];
  for (const [code, message, reason] of cases) {
    const f = classifyError(err(code, message), at);
    assert.equal([f.class, f.code], ['TLS', code], code);
    assert.match(f.reason, reason, code);
    assert.ok(f.reason.includes(message), `${code}: the system's words are kept`);
  }
  const closed = classifyError(
    err('ECONNRESET', 'Client network socket disconnected before secure TLS connection was established'),
    at,
  );
  assert.equal(
    [closed.class, closed.reason.startsWith('TLS: the server closed the connection during the handshake')],
    ['TLS', true],
  );
});

test('network failures: DNS, refused, unreachable, timeout, reset, blocked, not HTTP, other', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'ENOTFOUND',
      'getaddrinfo ENOTFOUND erp.example.com.br',
      'DNS',
      /^DNS: the name erp\.example\.com\.br:443 does not resolve/,
    ],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN erp.example.com.br', 'DNS', /failed for now/],
    [
      'ECONNREFUSED',
      'connect ECONNREFUSED 10.0.0.1:443',
      'REFUSED',
      /^connection refused by erp\.example\.com\.br:443/,
    ],
    ['EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.1:443', 'UNREACHABLE', /cannot be reached/],
    ['ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443', 'TIMEOUT', /timed out/],
    ['ECONNRESET', 'socket hang up', 'RESET', /closed the connection before answering/],
    ['EPRIVATEADDRESS', 'refused: erp resolves to the private address 10.0.0.1', 'BLOCKED', /^refused: erp resolves/],
    ['HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/', 'PROTOCOL', /is not valid HTTP/],
    ['EWEIRD', 'something odd', 'OTHER', /^EWEIRD: something odd$/],
  ];
  for (const [code, message, kind, reason] of cases) {
    const f = classifyError(err(code, message), at);
    assert.is(f.class, kind, code);
    assert.match(f.reason, reason, code);
  }
  assert.equal(timeoutFailure(400), {
    class: 'TIMEOUT',
    code: null,
    reason: 'no answer within 400 ms (PIXGATE_WEBHOOK_TIMEOUT_MS)',
  });
  assert.match(statusFailure(302).reason, /HTTP 302, not 2xx \(redirects are not followed\)/);
});

test('the log masks the Authorization credential, keeps the signatures', () => {
  const headers = {
    Authorization: 'Bearer 9f8e7d6c5b4a',
    'X-Pixgate-Signature': 't=1,v1=abc',
    'x-webhook-signature': 'c2ln',
  };
  assert.equal(loggedHeaders(headers), { ...headers, Authorization: 'Bearer ****5b4a' });
  assert.equal(loggedHeaders({ authorization: 'short' }), { authorization: '****' });
  assert.equal(loggedHeaders({ Authorization: 'Basic dXNlcjpwYXNzd29yZA==' }).Authorization, 'Basic ****ZA==');
});

test.run();
