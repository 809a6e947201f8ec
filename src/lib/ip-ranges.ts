// Which IP addresses are public unicast addresses, the only ones a server-side request to a
// URL given by a client (a webhook) may reach. An IPv6 address that carries an IPv4 address
// (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d,
// NAT64 64:ff9b::a.b.c.d, 6to4 2002:aabb:ccdd::, Teredo 2001:0::) is judged by that IPv4
// address too: otherwise "[::127.0.0.1]" or "[2002:7f00:1::]" would reach this machine.
import { BlockList, isIP } from 'node:net';

const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network (0.0.0.0 connects to this machine)
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to addresses of the operator's choice
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (deprecated tunnelling; no server is reached through it)
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 segment identifiers
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

// True when the address is not a public unicast address (anything that is not an IP address
// counts as not public).
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface
  const family = isIP(bare);
  if (family === 4) return blockedV4.check(bare, 'ipv4');
  if (family !== 6) return true;
  const bytes = ipv6Bytes(bare);
  if (!bytes) return true;
  if (blockedV6.check(bare, 'ipv6')) return true;
  return embeddedIpv4(bytes).some((v4) => blockedV4.check(v4, 'ipv4'));
}

// The IPv4 addresses an IPv6 address carries by a standard transition mechanism.
export function embeddedIpv4(bytes: Uint8Array): string[] {
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  const v4 = (at: number, mask = 0) => [0, 1, 2, 3].map((i) => (bytes[at + i]! ^ mask).toString()).join('.');
  const found: string[] = [];
  // ::a.b.c.d (compatible, which also covers :: and ::1), ::ffff:a.b.c.d (mapped)
  if (zero(0, 10) && ((bytes[10] === 0 && bytes[11] === 0) || (bytes[10] === 0xff && bytes[11] === 0xff)))
    found.push(v4(12));
  // ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) found.push(v4(12));
  // 64:ff9b::a.b.c.d (well-known NAT64 prefix, RFC 6052)
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) found.push(v4(12));
  // 2002:aabb:ccdd::/48 (6to4, RFC 3056)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) found.push(v4(2));
  // 2001:0:<server>:<flags>:<port>:<client, inverted> (Teredo, RFC 4380)
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) found.push(v4(4), v4(12, 0xff));
  return found;
}

// The 16 bytes of an IPv6 address in any spelling (compressed, with a trailing dotted IPv4),
// or undefined when it is not one.
export function ipv6Bytes(address: string): Uint8Array | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[2 * i] = n >> 8;
    bytes[2 * i + 1] = n & 0xff;
  });
  return bytes;
}
