// Holds the operations of the two source documents (and the paths the issues fixed for the ones
// the documents list only in part); fails when a spec lacks one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type SpecName, loadRawSpec, operationsOf } from '../support/spec';

const PLATFORM = `
GET /api/v1/account/{}
GET /api/v1/account
POST /api/v1/account
DELETE /api/v1/account/{}
POST /api/v1/account/{}/withdraw
GET /api/v1/account-register
DELETE /api/v1/account-register/{}
POST /api/v1/application
DELETE /api/v1/application
POST /api/v1/boleto/validate
GET /api/v1/cashback-fidelity/balance/{}
POST /api/v1/cashback-fidelity
GET /openpix/charge/brcode/image/{}.png
GET /api/image/qrcode/base64/{}
POST /api/v1/charge
GET /api/v1/charge
GET /api/v1/charge/{}
DELETE /api/v1/charge/{}
PATCH /api/v1/charge/{}
GET /api/v1/charge/{}/refund
POST /api/v1/charge/{}/refund
GET /api/v1/company
GET /api/v1/customer/{}
GET /api/v1/customer
POST /api/v1/customer
PATCH /api/v1/customer/{}
GET /api/v1/dispute/{}
GET /api/v1/dispute
POST /api/v1/dispute/{}/evidence
POST /api/v1/funds-recovery
GET /api/v1/funds-recovery/{}
POST /api/v1/funds-recovery/{}/cancel
POST /api/v1/kyc/onboarding
POST /api/v1/kyc/onboarding/{}/submit
GET /api/v1/kyc/representatives
POST /api/v1/kyc/representatives
POST /api/v1/kyc/representatives/email-code/send
POST /api/v1/kyc/representatives/phone-code/send
POST /api/v1/kyc/representatives/email-code/verify
POST /api/v1/kyc/representatives/phone-code/verify
GET /api/v1/limits/{}
GET /api/v1/partner/affiliate
GET /api/v1/partner/company
POST /api/v1/partner/company
GET /api/v1/partner/company/{}
POST /api/v1/partner/application
GET /api/v1/payment
GET /api/v1/payment/{}
POST /api/v1/payment
POST /api/v1/payment/approve
GET /api/v1/pix-keys
POST /api/v1/pix-keys
DELETE /api/v1/pix-keys/{}
PUT /api/v1/pix-keys/{}/default
GET /api/v1/pix-keys/{}/check
POST /api/v1/pix-keys/check
GET /api/v1/pix-keys/tokens
GET /api/v1/pix-keys/tokens/logs
GET /api/v1/qrcode-static
POST /api/v1/qrcode-static
GET /api/v1/qrcode-static/{}
DELETE /api/v1/qrcode-static/{}
GET /api/v1/subscriptions/{}
POST /api/v1/subscriptions
GET /api/v1/transaction
GET /api/v1/transaction/{}
GET /api/v1/webhook
POST /api/v1/webhook
DELETE /api/v1/webhook/{}
GET /api/v1/webhook/public-keys
POST /api/v1/sandbox/companies
POST /api/v1/sandbox/pay
POST /api/v1/sandbox/pix-in
GET /api/v1/sandbox/clock
POST /api/v1/sandbox/clock/advance
`;

// The 48 management operations of the standard v2.8.2 under /pix/v2, its three payload
// locations under /qr/v2, and the token and key endpoints that make it usable.
const PIX = `
GET /pix/v2/cob/{}
PUT /pix/v2/cob/{}
PATCH /pix/v2/cob/{}
GET /pix/v2/cob
POST /pix/v2/cob
GET /pix/v2/cobv/{}
PUT /pix/v2/cobv/{}
PATCH /pix/v2/cobv/{}
GET /pix/v2/cobv
GET /pix/v2/lotecobv/{}
PUT /pix/v2/lotecobv/{}
PATCH /pix/v2/lotecobv/{}
GET /pix/v2/lotecobv
GET /pix/v2/locrec
POST /pix/v2/locrec
GET /pix/v2/locrec/{}
DELETE /pix/v2/locrec/{}/idRec
GET /pix/v2/loc
POST /pix/v2/loc
GET /pix/v2/loc/{}
DELETE /pix/v2/loc/{}/txid
GET /pix/v2/pix/{}
GET /pix/v2/pix
GET /pix/v2/pix/{}/devolucao/{}
PUT /pix/v2/pix/{}/devolucao/{}
GET /pix/v2/webhook/{}
PUT /pix/v2/webhook/{}
DELETE /pix/v2/webhook/{}
GET /pix/v2/webhook
GET /pix/v2/webhookrec
PUT /pix/v2/webhookrec
DELETE /pix/v2/webhookrec
GET /pix/v2/webhookcobr
PUT /pix/v2/webhookcobr
DELETE /pix/v2/webhookcobr
GET /pix/v2/rec/{}
PATCH /pix/v2/rec/{}
GET /pix/v2/rec
POST /pix/v2/rec
POST /pix/v2/solicrec
GET /pix/v2/solicrec/{}
PATCH /pix/v2/solicrec/{}
GET /pix/v2/cobr/{}
PUT /pix/v2/cobr/{}
PATCH /pix/v2/cobr/{}
GET /pix/v2/cobr
POST /pix/v2/cobr
POST /pix/v2/cobr/{}/retentativa/{}
GET /qr/v2/{}
GET /qr/v2/cobv/{}
GET /qr/v2/rec/{}
POST /oauth/token
GET /.well-known/jwks.json
`;

function listOf(text: string): string[] {
  return text.trim().split('\n').map((l) => l.trim());
}

// Path parameter names differ between documents; compare the shape only.
function shape(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')}`;
}

function specShapes(name: SpecName): Set<string> {
  return new Set(operationsOf(loadRawSpec(name)).map((o) => shape(o.method, o.path)));
}

test('the source lists are what the documents say', () => {
  assert.is(listOf(PIX).length, 53);
  assert.is(listOf(PLATFORM).length, 75);
});

test('platform spec has every operation of the platform document', () => {
  const have = specShapes('platform');
  assert.equal(listOf(PLATFORM).filter((op) => !have.has(op)), []);
});

test('pix spec has every operation of the standard', () => {
  const have = specShapes('pix');
  assert.equal(listOf(PIX).filter((op) => !have.has(op)), []);
});

test.run();
