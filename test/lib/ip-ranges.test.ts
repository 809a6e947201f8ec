// Which addresses a webhook may reach: every IPv6 spelling that carries a private, loopback
// or link-local IPv4 address is refused as that IPv4 address is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { embeddedIpv4, ipv6Bytes, isPrivateAddress } from '../../src/lib/ip-ranges';

test('IPv6 addresses parse to their 16 bytes in every spelling', () => {
  const hex = (a: string) => Buffer.from(ipv6Bytes(a)!).toString('hex');
  assert.is(hex('::1'), '00000000000000000000000000000001');
  assert.is(hex('::'), '00000000000000000000000000000000');
  assert.is(hex('::127.0.0.1'), '0000000000000000000000007f000001');
  assert.is(hex('::ffff:10.0.0.1'), '00000000000000000000ffff0a000001');
  assert.is(hex('2002:7f00:1::'), '20027f00000100000000000000000000');
  assert.is(hex('64:FF9B:0:0:0:0:7F00:1'), '0064ff9b00000000000000007f000001');
  assert.is(hex('2001:db8:0:0:1::1'), '20010db8000000000001000000000001');
  assert.is(ipv6Bytes('127.0.0.1'), undefined);
  assert.is(ipv6Bytes('nope'), undefined);
});

test('the IPv4 address each transition mechanism embeds', () => {
  const of = (a: string) => embeddedIpv4(ipv6Bytes(a)!);
  assert.equal(of('::ffff:7f00:1'), ['127.0.0.1']);
  assert.equal(of('::7f00:1'), ['127.0.0.1']);
  assert.equal(of('::ffff:0:a00:1'), ['10.0.0.1']);
  assert.equal(of('64:ff9b::a9fe:a9fe'), ['169.254.169.254']);
  assert.equal(of('2002:c0a8:101::1'), ['192.168.1.1']);
  // Teredo: the server, and the client inverted bit by bit
  assert.equal(of('2001:0:4136:e378:8000:63bf:3fff:fdd2'), ['65.54.227.120', '192.0.2.45']);
  assert.equal(of('2001:4860:4860::8888'), []);
});

test('loopback, private and link-local IPv4 addresses are refused in every IPv6 spelling', () => {
  const refused = [
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:127.0.0.1',
    '::ffff:0:127.0.0.1',
    '0:0:0:0:0:ffff:7f00:1',
    '2002:7f00:1::',
    '2002:7f00:0001:0000:0000:0000:0000:0001',
    '2002:a00:1::1',
    '2002:a9fe:a9fe::',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b:0:0:0:0:c0a8:101',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1:ffff::8.8.8.8',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::a9fe:a9fe',
    '::0.0.0.0',
    '::100.64.0.1',
    'fe80::1%eth0',
    '2001:db8::1',
    '5f00::1',
  ];
  for (const a of refused) assert.ok(isPrivateAddress(a), `${a} should be refused`);
});

test('public addresses stay reachable, however written', () => {
  const allowed = [
    '8.8.8.8',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const a of allowed) assert.not.ok(isPrivateAddress(a), `${a} should be allowed`);
});

test.run();
