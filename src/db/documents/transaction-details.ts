// What the `details` JSON of a transaction holds. Every area that moves money writes it; the
// read side (GET /api/v1/transaction, transactions.view.ts) shows the first group of keys, the
// others are kept for the record (and for lookups by other areas) but not shown.
import type { components as platformSchemas } from '../../../generated/platform.types';
import type { components as pixSchemas } from '../../../generated/pix.types';

type Party = platformSchemas['schemas']['Party'];
type TaxID = platformSchemas['schemas']['TaxID'];
type SplitPart = platformSchemas['schemas']['SplitPart'];

export interface CounterpartyDetails {
  name?: string;
  taxID?: string;
  taxId?: string;
  email?: string;
  phone?: string;
  pixKey?: string;
  pixKeyType?: string;
  ispb?: string;
  bank?: string;
  branch?: string;
  account?: string;
  accountType?: string;
}

// What the read side shows; every key is optional. Values of the wrong type (rows written
// before a writer changed) are ignored there.
export interface TransactionDetails {
  // The Pix txid (shown as transactionID); '***' means none. `transactionID` is read too.
  txid?: string;
  transactionID?: string;
  // The payer's message (shown as infoPagador); `comment` is read when it is absent.
  infoPagador?: string;
  comment?: string;
  // Who sent the money (PIX_IN, REFUND_IN): shown as payer and as the debit party.
  payer?: CounterpartyDetails;
  // Who received it (PIX_OUT, WITHDRAW, REFUND_OUT): shown as the credit party.
  destination?: CounterpartyDetails;
  // The charge paid (PIX_IN); `chargeCorrelationID` alone is enough.
  charge?: {
    correlationID?: string;
    status?: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
    value?: number;
    transactionID?: string;
    createdAt?: string;
  };
  chargeCorrelationID?: string;
  // The charge's customer (the spec's Customer; taxID as a string or {taxID, type}).
  customer?: {
    name?: string;
    email?: string;
    phone?: string;
    taxID?: string | TaxID;
    correlationID?: string;
  };
  // The static QR code paid (PIX_IN to a key with a static code's txid).
  pixQrCode?: { name?: string; correlationID?: string; identifier?: string };
  // The spec's Party objects, when the writer knows better than what is derived above.
  debitParty?: Party;
  creditParty?: Party;
  // The parts of a paid split charge (src/splits).
  splits?: SplitPart[];
}

// What is stored besides: kept for the record, not shown.
export interface StoredTransactionDetails extends TransactionDetails {
  // The key a Pix was received on (PIX_IN) and the standard's parts of its amount.
  pixKey?: string;
  componentesValor?: pixSchemas['schemas']['Pix']['componentesValor'];
  // A devolution (REFUND_OUT, REFUND_IN): the Pix it returns and its own ids.
  originalEndToEndId?: string;
  devolutionId?: string;
  natureza?: pixSchemas['schemas']['DevolucaoNatureza'];
  refundCorrelationID?: string;
  // A fee (FEE): why it was charged.
  reason?: string;
  withdrawEndToEndId?: string;
  description?: string;
  // A recurring charge paid (PIX_IN of Pix Automático).
  idRec?: string;
  // A payment sent (PIX_OUT, BILL_PAYMENT).
  payment?: { correlationID: string; type: string };
  // A move between accounts of this server (INTERNAL_TRANSFER).
  operation?: string;
  correlationID?: string;
  subaccount?: string;
  // A split part paid (src/splits), or the parts taken back for a refund of the payment.
  split?:
    | { pixKey: string; splitType: SplitPart['splitType']; charge: string; paymentEndToEndId: string }
    | { paymentEndToEndId: string; refund: string };
}
