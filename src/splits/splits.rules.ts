// The rules of split charges (pure). When a charge with splits is paid, each part goes to its
// destination and the rest stays with the receiver:
// - SPLIT_INTERNAL_TRANSFER: the account of this server the Pix key reaches;
// - SPLIT_SUB_ACCOUNT: the subaccount of the receiving company the key reaches;
// - SPLIT_PARTNER: the account here the key reaches, else out through the Pix rail.
// A part whose destination cannot be reached (a key not registered here for the first two, a
// closed account, the receiving account itself) stays with the receiver (KEPT). When less than
// the parts add up to is paid (a discount), each part shrinks in proportion, rounded down.
// A refund of a split charge takes back from each part sent to an account here its share of
// the refund, rounded down (refund x part / amount paid), at most what that account has
// available; the receiver pays the rest of the refund, including the shares of parts that
// left through the rail.
import { type KeyAccount } from '../keys/keys.public';

export type SplitType = 'SPLIT_INTERNAL_TRANSFER' | 'SPLIT_SUB_ACCOUNT' | 'SPLIT_PARTNER';

export interface SplitConfig {
  pixKey: string;
  value: number;
  splitType?: string;
}

export type SplitDestination =
  { kind: 'account'; accountId: string; companyId: string } | { kind: 'outside' } | { kind: 'kept' };

export interface PlannedPart {
  pixKey: string;
  splitType: SplitType;
  // What moves (the configured value, or its proportional share of a smaller payment).
  value: number;
  destination: SplitDestination;
}

export interface Receiver {
  companyId: string;
  accountId: string;
}

// Each part's amount out of `paid`: as configured, or scaled down (rounded down) when the
// parts add up to more than was paid.
export function partAmounts(values: number[], paid: number): number[] {
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum <= paid) return [...values];
  return values.map((v) => Math.floor((v * paid) / sum));
}

export function splitTypeOf(s: SplitConfig): SplitType {
  return s.splitType === 'SPLIT_SUB_ACCOUNT' || s.splitType === 'SPLIT_PARTNER'
    ? s.splitType
    : 'SPLIT_INTERNAL_TRANSFER';
}

// Where a part goes, given the account its key reaches here (if any).
export function destinationOf(type: SplitType, owner: KeyAccount | undefined, receiver: Receiver): SplitDestination {
  if (!owner) return type === 'SPLIT_PARTNER' ? { kind: 'outside' } : { kind: 'kept' };
  if (owner.account_status !== 'OPEN' || owner.account_id === receiver.accountId) return { kind: 'kept' };
  if (type === 'SPLIT_SUB_ACCOUNT' && (owner.company_id !== receiver.companyId || owner.parent_account_id === null))
    return { kind: 'kept' };
  return { kind: 'account', accountId: owner.account_id, companyId: owner.company_id };
}

export function planParts(
  splits: SplitConfig[],
  owners: Map<string, KeyAccount>,
  receiver: Receiver,
  paid: number,
): PlannedPart[] {
  const amounts = partAmounts(
    splits.map((s) => s.value),
    paid,
  );
  return splits.map((s, i) => {
    const splitType = splitTypeOf(s);
    const destination = amounts[i]! > 0 ? destinationOf(splitType, owners.get(s.pixKey), receiver) : { kind: 'kept' };
    return { pixKey: s.pixKey, splitType, value: amounts[i]!, destination } as PlannedPart;
  });
}

// The share of a refund each account that received parts gives back, before checking what
// it has available.
export function refundShares(
  parts: Array<{ accountId: string; amount: number }>,
  refund: number,
  paid: number,
): Array<{ accountId: string; amount: number }> {
  if (paid <= 0) return [];
  return parts
    .map((p) => ({ accountId: p.accountId, amount: Math.floor((refund * p.amount) / paid) }))
    .filter((p) => p.amount > 0);
}
