// Tables of signing keys (src/signing).
import type { ColumnType, Selectable } from 'kysely';
import type { StoredPublicJwk } from '../../lib/jws';

type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

export interface SigningKeysTable {
  kid: string;
  purpose: string;
  algorithm: string;
  private_key: string;
  public_jwk: NullableJson<StoredPublicJwk>;
  certificate: string | null;
  created_at: Date;
  retired_at: Date | null;
}

export interface SigningTables {
  signing_keys: SigningKeysTable;
}

export type SigningKey = Selectable<SigningKeysTable>;
