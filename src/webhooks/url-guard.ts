// Which webhook URLs are acceptable: http or https only, and, outside sandbox mode, never an
// address in a private, loopback, link-local or otherwise non-public range. Checked at
// registration and again at delivery, on the addresses DNS answers at that moment (the
// connection then goes to the address that was checked, so a rebinding DNS cannot slip a
// private address in between: src/webhooks/checked-lookup.ts). An IPv6 spelling of an IPv4
// address ([::127.0.0.1], [2002:7f00:1::], [64:ff9b::7f00:1]) is judged by that IPv4 address
// (src/lib/ip-ranges.ts).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../lib/ip-ranges';
import { checkedLookup } from './checked-lookup';

export { isPrivateAddress } from '../lib/ip-ranges';
// The lookup of outgoing connections, under its former name (src/webhooks/checked-lookup.ts).
export const guardedLookup = checkedLookup;

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
