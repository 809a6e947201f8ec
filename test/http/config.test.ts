// Settings a server cannot run with are refused at start with one clear message: here the
// public URL, whose host and path go into every BR Code's payload location (at most 77
// characters by the standard, the longest being a cobv's).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig, SANDBOX_SECRETS_KEY, secretsBoxOf } from '../../src/config';

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

test('PIXGATE_EVENT_RETENTION_DAYS: whole days from 1 to 3650, 30 by default', () => {
  assert.is(loadConfig({}).events.retentionDays, 30);
  assert.is(loadConfig({ PIXGATE_EVENT_RETENTION_DAYS: '90' }).events.retentionDays, 90);
  for (const bad of ['0', '3651', '1.5', 'a month'])
    assert.throws(
      () => loadConfig({ PIXGATE_EVENT_RETENTION_DAYS: bad }),
      /PIXGATE_EVENT_RETENTION_DAYS must be a whole number of days from 1 to 3650/,
      bad,
    );
});

test('PIXGATE_SECRETS_KEY: the published key in sandbox mode, required outside it, 32 characters at least', () => {
  assert.is(loadConfig({}).secretsKey, SANDBOX_SECRETS_KEY);
  assert.throws(
    () => loadConfig({ PIXGATE_SANDBOX: 'false' }),
    /PIXGATE_SECRETS_KEY must be set when PIXGATE_SANDBOX=false/,
  );
  assert.throws(() => loadConfig({ PIXGATE_SECRETS_KEY: 'short' }), /at least 32 characters/);
  const key = 'a-production-secrets-key:0123456789abcdef';
  const config = loadConfig({ PIXGATE_SANDBOX: 'false', PIXGATE_SECRETS_KEY: key });
  assert.is(config.secretsKey, key);
  // the key derived from it seals, and another configuration with the same key opens
  const sealed = secretsBoxOf(config).seal('whsec_x', 'place');
  assert.is(secretsBoxOf(loadConfig({ PIXGATE_SECRETS_KEY: key })).open(sealed, 'place'), 'whsec_x');
  assert.throws(() => secretsBoxOf(loadConfig({})).open(sealed, 'place'), /sealed under another key/);
  // the previous key still opens what it sealed
  const rotated = loadConfig({ PIXGATE_SECRETS_KEY: `${key}-2`, PIXGATE_SECRETS_KEY_PREVIOUS: key });
  assert.is(secretsBoxOf(rotated).open(sealed, 'place'), 'whsec_x');
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
