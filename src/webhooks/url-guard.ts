// Which webhook URLs are acceptable: http or https only, and, outside sandbox mode, never an
// address in a private, loopback, link-local or otherwise non-public range. Checked at
// registration and again at delivery, on the addresses DNS answers at that moment (the
// connection then goes to the address that was checked, so a rebinding DNS cannot slip a
// private address in between).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

// True when the address is not a public unicast address. IPv4-mapped (::ffff:a.b.c.d) and
// NAT64 (64:ff9b::a.b.c.d) addresses are judged by the IPv4 address they carry.
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIpv4(address);
  if (embedded) return blocked.check(embedded, 'ipv4');
  return blocked.check(address, 'ipv6');
}

function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

// The host of a URL as an address when it is one ("[::1]" -> "::1"), else undefined.
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}

// Checks the form of a webhook URL (and, outside sandbox mode, that it is not private).
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' };
  if (url.username || url.password)
    return { ok: false, reason: 'must not carry credentials (use authorization instead)' };
  if (!url.hostname) return { ok: false, reason: 'must name a host' };
  if (allowPrivate) return { ok: true, url };
  const reason = await privateReason(url);
  return reason ? { ok: false, reason } : { ok: true, url };
}

// Why the URL's host is not acceptable outside sandbox mode, or undefined. A name that does
// not resolve now is accepted: delivery resolves (and checks) it again on every attempt.
async function privateReason(url: URL): Promise<string | undefined> {
  const literal = literalAddress(url);
  if (literal)
    return isPrivateAddress(literal)
      ? `must not point to a private, loopback or link-local address (${literal})`
      : undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'must not point to a private, loopback or link-local address (localhost)';
  const addresses = await new Promise<LookupAddress[]>((ok) =>
    dnsLookup(host, { all: true }, (err, list) => ok(err ? [] : list)),
  );
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad
    ? `must not point to a private, loopback or link-local address (${host} resolves to ${bad.address})`
    : undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

// A dns.lookup for http.request that refuses names resolving to a private address.
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const refused = Object.assign(new Error(`refused: ${hostname} resolves to the private address ${bad.address}`), {
        code: 'EPRIVATEADDRESS',
      });
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    return callback(null, first.address, first.family);
  });
}
