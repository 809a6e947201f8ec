// The Pix rail: DICT key lookups, account resolution and SPI settlement behind one interface.
// Settlement with the Central Bank is simulated: a destination on this server is settled
// locally through receivePix (the payer's debit and the receiver's credit commit together in
// the caller's transaction); anything else goes to the simulated outside world, which in
// sandbox mode fails for the destinations of the failure table (src/rail/outside-world.ts).
import { findLocalKey } from '../keys/keys.public';
import { type LocalAccount, findLocalAccount } from '../accounts/accounts.public';
import type { Kysely } from 'kysely';
import { receivePix, type ReceiveFailure } from '../pixin/receive.service';
import type { Database } from '../db/schema';
import type { Cents } from '../lib/money';
import type { PixKeyType } from '../lib/pix-key';
import { institutionName, OWN_ISPB, OWN_PSP_NAME } from '../lib/psp';
import {
  isUnknownOutsideKey,
  outsideKeyOwner,
  SPI_REASONS,
  sandboxFailureOf,
  type SandboxFailure,
} from './outside-world';
import type { AccountType, DictEntry, Destination, Party } from '../db/documents/party';

export type { AccountType, DictEntry, Destination, Party } from '../db/documents/party';

export interface Payer extends Party {
  companyId: string;
  accountId: string;
}

export interface Transfer {
  endToEndId: string;
  value: Cents;
  at: Date;
  payer: Payer;
  destination: Destination;
  comment?: string;
}

export type SendOutcome = { ok: true } | { ok: false; code: string; reason: string };

export interface ManualAccount {
  ispb: string;
  bankName?: string;
  branch: string;
  account: string;
  accountType: AccountType;
  holder: { name: string; taxId: string; taxIdType: 'BR:CPF' | 'BR:CNPJ' };
}

export interface Rail {
  // The DICT: the owner of a key, or undefined when no institution has it.
  lookupKey(db: Kysely<Database>, key: string, type: PixKeyType): Promise<DictEntry | undefined>;
  // A bank account given by hand: on this server when the ISPB is ours.
  resolveAccount(db: Kysely<Database>, account: ManualAccount): Promise<Destination>;
  // Sandbox only: the refusal the payer's side simulates for this destination, if any.
  payerRefusal(destination: Destination): 'NOT_ENOUGH_BALANCE' | 'LIMIT_EXCEEDED' | undefined;
  // Settles a transfer inside the caller's transaction (after the payer's hold).
  send(trx: Kysely<Database>, transfer: Transfer): Promise<SendOutcome>;
}

const RECEIVE_FAILURE_CODES: Record<ReceiveFailure, string> = {
  NOT_FOUND: 'AC03',
  EXPIRED: 'DS04',
  NOT_PAYABLE: 'DS04',
  WRONG_AMOUNT: 'AM12',
  PAYER_MISMATCH: 'DS04',
  PAST_VALIDITY: 'DS04',
};

export function localParty(row: LocalAccount): Party {
  return {
    name: row.official_name,
    tradeName: row.trade_name,
    taxId: row.tax_id,
    taxIdType: row.tax_id.length === 11 ? 'BR:CPF' : 'BR:CNPJ',
    ispb: OWN_ISPB,
    bank: OWN_PSP_NAME,
    branch: row.branch,
    account: row.account_number,
    accountType: 'TRAN',
  };
}

export class SimulatedRail implements Rail {
  constructor(
    private readonly sandbox: boolean,
    // Written into the charge views of the events a local payment raises on its receiver.
    private readonly publicUrl: string,
  ) {}

  async lookupKey(db: Kysely<Database>, key: string, type: PixKeyType): Promise<DictEntry | undefined> {
    const local = await findLocalKey(db, key);
    if (local)
      return {
        key,
        type: local.type,
        owner: localParty(local),
        local: { companyId: local.company_id, accountId: local.account_id },
      };
    if (isUnknownOutsideKey(key)) return undefined;
    return { key, type, owner: outsideKeyOwner(key, type) };
  }

  async resolveAccount(db: Kysely<Database>, input: ManualAccount): Promise<Destination> {
    const declared = { name: input.holder.name, taxId: input.holder.taxId, taxIdType: input.holder.taxIdType };
    if (input.ispb === OWN_ISPB) {
      const local = await findLocalAccount(db, input.branch, input.account);
      if (local)
        return {
          ...localParty(local),
          where: 'local',
          companyId: local.company_id,
          accountId: local.id,
          declaredTaxId: input.holder.taxId,
        };
      // No such account here: sent anyway, refused on settlement (AC03), as the SPI would.
      return {
        ...declared,
        ispb: OWN_ISPB,
        bank: OWN_PSP_NAME,
        branch: input.branch,
        account: input.account,
        accountType: input.accountType,
        where: 'local',
      };
    }
    // Named by the directory of participants (an ISPB it does not know is shown as such).
    const bank = input.bankName ?? institutionName(input.ispb);
    return {
      ...declared,
      ispb: input.ispb,
      bank,
      branch: input.branch,
      account: input.account,
      accountType: input.accountType,
      where: 'outside',
    };
  }

  payerRefusal(destination: Destination): 'NOT_ENOUGH_BALANCE' | 'LIMIT_EXCEEDED' | undefined {
    if (!this.sandbox || destination.where !== 'outside') return undefined;
    const failure = sandboxFailureOf(destination, OWN_ISPB);
    return failure === 'NOT_ENOUGH_BALANCE' || failure === 'LIMIT_EXCEEDED' ? failure : undefined;
  }

  async send(trx: Kysely<Database>, transfer: Transfer): Promise<SendOutcome> {
    const { destination } = transfer;
    if (destination.where === 'outside') {
      const failure: SandboxFailure | undefined = this.sandbox ? sandboxFailureOf(destination, OWN_ISPB) : undefined;
      if (failure) return { ok: false, code: failure, reason: SPI_REASONS[failure]! };
      return { ok: true };
    }
    return this.settleLocally(trx, transfer);
  }

  private async settleLocally(trx: Kysely<Database>, transfer: Transfer): Promise<SendOutcome> {
    const { destination, payer } = transfer;
    if (!destination.accountId) return { ok: false, code: 'AC03', reason: SPI_REASONS.AC03! };
    if (destination.declaredTaxId && destination.declaredTaxId !== destination.taxId)
      return { ok: false, code: 'BE01', reason: SPI_REASONS.BE01! };
    // Addressed as the payer addressed it: a dynamic code's location, a key (with a static
    // code's txid), or the account given by hand (credited directly, keys or not).
    let address: { locationUrl: string } | { pixKey: string; txid?: string } | { accountId: string };
    if (destination.locationUrl) address = { locationUrl: destination.locationUrl };
    else if (destination.pixKey)
      address = { pixKey: destination.pixKey, ...(destination.txid ? { txid: destination.txid } : {}) };
    else address = { accountId: destination.accountId };
    const result = await receivePix(
      trx,
      {
        endToEndId: transfer.endToEndId,
        value: transfer.value,
        at: transfer.at,
        payer: {
          name: payer.name,
          taxId: payer.taxId,
          ispb: OWN_ISPB,
          companyId: payer.companyId,
          accountId: payer.accountId,
        },
        ...address,
        ...(transfer.comment ? { infoPagador: transfer.comment } : {}),
      },
      { publicUrl: this.publicUrl },
    );
    if (result.ok) return { ok: true };
    return {
      ok: false,
      code: RECEIVE_FAILURE_CODES[result.code] ?? 'DS04',
      reason: `${result.code}: ${result.message}`,
    };
  }
}
