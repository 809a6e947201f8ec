// The X-Pixgate-Signature of a webhook delivery: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
// "<t>.<raw body>")>. Here, below every layer, because two sides make it: the server for each
// delivery (src/webhooks/signature.ts) and `pixgate listen` on a developer's machine with its
// session secret (src/cli/), which must not load the server to sign.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Pixgate-Signature';

export function hmacSignature(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
