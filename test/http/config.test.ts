// Settings a server cannot run with are refused at start with one clear message: here the
// public URL, whose host and path go into every BR Code's payload location (at most 77
// characters by the standard, the longest being a cobv's).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';

test('PIXGATE_PUBLIC_URL: absolute http(s), trailing slashes dropped, short enough for BR Codes', () => {
  assert.is(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080');
  assert.is(
    loadConfig({ PIXGATE_PUBLIC_URL: 'https://pix.exemplo.com.br/gw/' }).publicUrl,
    'https://pix.exemplo.com.br/gw',
  );
  // 29 characters of host and path: the longest location is exactly 77.
  assert.is(
    loadConfig({ PIXGATE_PUBLIC_URL: 'https://pagamentos.exemplo.com.br' }).publicUrl.length,
    'https://'.length + 25,
  );
  assert.not.throws(() => loadConfig({ PIXGATE_PUBLIC_URL: `https://${'a'.repeat(29)}` }));
  assert.throws(
    () => loadConfig({ PIXGATE_PUBLIC_URL: `https://${'a'.repeat(30)}` }),
    /too long for BR Codes.*at most 29 characters/,
  );
  assert.throws(() => loadConfig({ PIXGATE_PUBLIC_URL: 'pix.exemplo.com.br' }), /absolute http\(s\) URL/);
  assert.throws(() => loadConfig({ PIXGATE_PUBLIC_URL: 'ftp://pix.exemplo.com.br' }), /http\(s\) URL/);
});

test('PIXGATE_HOST: the loopback by default; an IP address or host name; anything else refused', () => {
  assert.is(loadConfig({}).host, '127.0.0.1');
  assert.is(loadConfig({ PIXGATE_HOST: '' }).host, '127.0.0.1');
  for (const host of ['0.0.0.0', '::', '::1', '10.0.0.7', 'pixgate.internal'])
    assert.is(loadConfig({ PIXGATE_HOST: host }).host, host);
  for (const host of ['http://0.0.0.0', '0.0.0.0:8080', 'a b', '-bad-'])
    assert.throws(() => loadConfig({ PIXGATE_HOST: host }), /PIXGATE_HOST must be an IP address or a host name/);
});

test.run();
