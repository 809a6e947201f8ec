// What Woovi's public reference of the platform API (woovibr/woovi-developers,
// src/swaggers/woovi.json, OpenAPI 3.0.3) says about the answers its clients decode, written
// down in our own form as JSON Schemas of only the fields it types. Its schemas declare no
// required fields and allow any other field: they constrain names and types, which is
// what an SDK relies on. Not copied: Charge.expiresIn, typed string there while its own
// examples and SDK send a number of seconds.
const str = { type: 'string' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const keyValues = { type: 'array', items: { type: 'object', properties: { key: str, value: str } } };
const address = {
  type: 'object',
  properties: Object.fromEntries(
    ['zipcode', 'street', 'number', 'neighborhood', 'city', 'state', 'complement', 'country'].map((k) => [k, str]),
  ),
};

export const wooviCustomer = {
  type: 'object',
  properties: {
    name: str,
    email: str,
    phone: str,
    correlationID: str,
    taxID: { type: 'object', properties: { taxID: str, type: str } },
    address,
  },
};

export const wooviCharge = {
  type: 'object',
  properties: {
    value: num,
    customer: { anyOf: [wooviCustomer, { type: 'null' }] },
    type: { enum: ['DYNAMIC', 'OVERDUE', 'BOLETO'] },
    comment: str,
    brCode: str,
    status: { enum: ['ACTIVE', 'COMPLETED', 'EXPIRED'] },
    correlationID: str,
    paymentLinkID: str,
    identifier: str,
    additionalInfo: keyValues,
    pixKey: str,
    createdAt: str,
    updatedAt: str,
    expiresDate: str,
  },
};

export const wooviRefund = {
  type: 'object',
  properties: {
    value: num,
    status: { enum: ['IN_PROCESSING', 'CONFIRMED', 'REJECTED'] },
    correlationID: str,
    endToEndId: str,
    time: str,
    comment: str,
  },
};

// A refund of a received Pix (/api/v1/refund: `refund` on create, `pixTransactionRefund` on
// get, `refunds[]` on list), as Woovi's SDKs type it.
export const wooviPixTransactionRefund = {
  type: 'object',
  properties: {
    value: num,
    time: str,
    status: str,
    correlationID: str,
    refundId: str,
    returnIdentification: str,
    comment: str,
  },
};

// The pageInfo of every list ("Pagination" there).
export const wooviPageInfo = {
  type: 'object',
  required: ['skip', 'limit', 'hasPreviousPage', 'hasNextPage'],
  properties: { skip: num, limit: num, hasPreviousPage: bool, hasNextPage: bool },
};

export const wooviAccount = {
  type: 'object',
  properties: {
    accountId: str,
    isDefault: bool,
    balance: { type: 'object', properties: { total: num, blocked: num, available: num } },
  },
};
