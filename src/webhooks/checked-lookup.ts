// The DNS lookup every outgoing webhook connection uses outside sandbox mode: it resolves the
// name, checks every address DNS answers (not only the one used) and refuses the name when
// any is not a public unicast address. The connection then goes to an address checked here,
// at connection time, so a DNS answer that changed since the webhook was registered (or
// between two attempts: DNS rebinding) cannot take a delivery to a private address. Pass it
// as the `lookup` option of http(s).request or of an http.Agent; a literal address in the
// URL never reaches a lookup, so the sender checks it itself (refusedLiteral).
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../lib/ip-ranges';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
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

// Why a URL whose host is an address literal must not be reached, or undefined (a name is
// checked by checkedLookup when the connection is made).
export function refusedLiteral(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isIP(host)) return undefined;
  return isPrivateAddress(host) ? `refused: ${host} is a private address` : undefined;
}
