// RSA signatures for the payload JWS (src/lib/jws.ts) and webhook bodies
// (src/webhooks/signature.ts): the private key parsed once per PEM (parsing PKCS#8 costs
// about a third of a signature), the signature made on libuv's thread pool (crypto.sign with
// a callback), so a burst of signatures does not hold the event loop.
import { createPrivateKey, type KeyObject, sign, type SignKeyObjectInput } from 'node:crypto';

// Keys rotate rarely: the map is cleared past a few.
const KEYS_KEPT = 16;
const keys = new Map<string, KeyObject>();

export function privateKeyOf(pem: string): KeyObject {
  let key = keys.get(pem);
  if (!key) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    key = createPrivateKey(pem);
    keys.set(pem, key);
  }
  return key;
}

// SHA-256 signature of `data` with the key and padding of `options`.
export function signSha256(data: string, options: SignKeyObjectInput): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    sign('sha256', Buffer.from(data), options, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );
}
