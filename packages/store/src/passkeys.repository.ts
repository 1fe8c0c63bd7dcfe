import { prepare, sql, type TQueryable } from '@pets/db';
import { isUniqueViolation } from './transaction';

/**
 * The passkeys and webauthn_challenges tables (issue 27, slice 5; docs/decisions.md "Passkeys"). A
 * passkey is a WebAuthn credential of an account: its id (base64url, unique across every account),
 * its COSE public key and signature counter. A challenge is handed out once, lives 5 minutes and is
 * consumed by the one statement that checks it, so two answers to one challenge cannot both pass.
 */

export type TPasskey = {
  id: string;
  accountId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type TNewPasskey = {
  accountId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  backedUp: boolean;
};

export type TChallengePurpose = 'register' | 'authenticate';

/** This credential is registered already (to this account or another). */
export class PasskeyExistsError extends Error {
  readonly kind = 'passkey-exists';

  constructor() {
    super('This passkey is registered already.');
  }
}

export const isPasskeyExists = (error: unknown): error is PasskeyExistsError =>
  error instanceof Error && (error as { kind?: unknown }).kind === 'passkey-exists';

const COLUMNS = [
  'id',
  'account_id as accountId',
  'credential_id as credentialId',
  'public_key as publicKey',
  'counter',
  'transports',
  'name',
  'backed_up as backedUp',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
] as const;

const INSERT = prepare((db, p: TNewPasskey) =>
  db
    .insertInto('passkeys')
    .values({
      account_id: p.accountId,
      credential_id: p.credentialId,
      public_key: sql<Buffer>`${p.publicKey}::bytea`,
      counter: sql<string>`${p.counter}::bigint`,
      transports: sql<string[]>`${p.transports}::text[]`,
      name: p.name,
      backed_up: p.backedUp,
    })
    .returning(COLUMNS),
);

const LIST = prepare((db, p: { accountId: string }) =>
  db
    .selectFrom('passkeys')
    .select(COLUMNS)
    .where('account_id', '=', p.accountId)
    .orderBy('id', 'asc')
    .limit(100),
);

const BY_CREDENTIAL = prepare((db, p: { credentialId: string }) =>
  db.selectFrom('passkeys').select(COLUMNS).where('credential_id', '=', p.credentialId),
);

const DELETE = prepare((db, p: { accountId: string; id: string }) =>
  db
    .deleteFrom('passkeys')
    .where('id', '=', p.id)
    .where('account_id', '=', p.accountId)
    .returning(COLUMNS),
);

/** Every passkey of the account (a new password starts clean: docs/decisions.md). */
const DELETE_ALL = prepare((db, p: { accountId: string }) =>
  db.deleteFrom('passkeys').where('account_id', '=', p.accountId).returning(['id', 'name']),
);

const RENAME = prepare((db, p: { accountId: string; id: string; name: string }) =>
  db
    .updateTable('passkeys')
    .set({ name: p.name })
    .where('id', '=', p.id)
    .where('account_id', '=', p.accountId)
    .returning(COLUMNS),
);

/**
 * Records a use: the new counter and when. A counter that did not move forward (a cloned
 * authenticator, or one that keeps none: 0) is refused by the library before this is reached.
 */
const USED = prepare((db, p: { id: string; counter: number; backedUp: boolean; now: Date }) =>
  db
    .updateTable('passkeys')
    .set({
      counter: sql<string>`greatest(counter, ${p.counter}::bigint)`,
      backed_up: p.backedUp,
      last_used_at: p.now,
    })
    .where('id', '=', p.id),
);

const INSERT_CHALLENGE = prepare(
  (db, p: { challenge: string; purpose: string; accountId: string | null; expiresAt: Date }) =>
    db.insertInto('webauthn_challenges').values({
      challenge: p.challenge,
      purpose: p.purpose,
      account_id: p.accountId,
      expires_at: p.expiresAt,
    }),
);

/** Expired challenges go as new ones come: the table stays as small as 5 minutes of them. */
const SWEEP_CHALLENGES = prepare((db, p: { now: Date }) =>
  db.deleteFrom('webauthn_challenges').where('expires_at', '<', p.now),
);

/** Marks the challenge used if it was handed out for this purpose (and account), unused, in time. */
const CONSUME_CHALLENGE = prepare(
  (db, p: { challenge: string; purpose: string; accountId: string | null; now: Date }) =>
    db
      .updateTable('webauthn_challenges')
      .set({ used_at: p.now })
      .where('challenge', '=', p.challenge)
      .where('purpose', '=', p.purpose)
      .where(sql<boolean>`account_id is not distinct from ${p.accountId}::bigint`)
      .where('used_at', 'is', null)
      .where('expires_at', '>', p.now)
      .returning('id'),
);

type TRow = Omit<TPasskey, 'counter' | 'id' | 'accountId'> & {
  id: string | number;
  accountId: string | number;
  counter: string | number;
};

const toPasskey = (row: TRow): TPasskey => ({
  ...row,
  id: String(row.id),
  accountId: String(row.accountId),
  counter: Number(row.counter),
  publicKey: new Uint8Array(row.publicKey),
});

export class PasskeysRepository {
  constructor(private readonly db: TQueryable) {}

  /** Throws PasskeyExistsError when the credential id is registered already. */
  async add(input: TNewPasskey): Promise<TPasskey> {
    try {
      const { rows } = await INSERT.execute(this.db, {
        ...input,
        publicKey: Buffer.from(input.publicKey),
      });
      return toPasskey(rows[0] as unknown as TRow);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new PasskeyExistsError();
      }
      throw error;
    }
  }

  /** The account's passkeys, oldest first (at most 100). */
  async list(accountId: string): Promise<TPasskey[]> {
    const { rows } = await LIST.execute(this.db, { accountId });
    return rows.map((row) => toPasskey(row as unknown as TRow));
  }

  async findByCredentialId(credentialId: string): Promise<TPasskey | null> {
    const row = (await BY_CREDENTIAL.execute(this.db, { credentialId })).rows[0];
    return row ? toPasskey(row as unknown as TRow) : null;
  }

  /** Deletes one of the account's passkeys; null when it has none of that id. */
  async delete(accountId: string, id: string): Promise<TPasskey | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) {
      return null;
    }
    const row = (await DELETE.execute(this.db, { accountId, id })).rows[0];
    return row ? toPasskey(row as unknown as TRow) : null;
  }

  /** Deletes every passkey of the account; their ids and names. */
  async deleteAll(accountId: string): Promise<{ id: string; name: string }[]> {
    const { rows } = await DELETE_ALL.execute(this.db, { accountId });
    return rows.map((row) => ({ id: String(row.id), name: row.name }));
  }

  /** Renames one of the account's passkeys; null when it has none of that id. */
  async rename(accountId: string, id: string, name: string): Promise<TPasskey | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) {
      return null;
    }
    const row = (await RENAME.execute(this.db, { accountId, id, name })).rows[0];
    return row ? toPasskey(row as unknown as TRow) : null;
  }

  async recordUse(id: string, counter: number, backedUp: boolean): Promise<void> {
    await USED.execute(this.db, { id, counter, backedUp, now: new Date() });
  }

  /** Keeps a challenge handed out for `ttlMs`, and drops the expired ones. */
  async keepChallenge(
    challenge: string,
    purpose: TChallengePurpose,
    accountId: string | null,
    ttlMs: number,
  ): Promise<void> {
    const now = new Date();
    await SWEEP_CHALLENGES.execute(this.db, { now });
    await INSERT_CHALLENGE.execute(this.db, {
      challenge,
      purpose,
      accountId,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
  }

  /** True once for a challenge handed out for this purpose and account, still in time. */
  async consumeChallenge(
    challenge: string,
    purpose: TChallengePurpose,
    accountId: string | null,
  ): Promise<boolean> {
    if (challenge.length === 0 || challenge.length > 128) {
      return false;
    }
    const { rows } = await CONSUME_CHALLENGE.execute(this.db, {
      challenge,
      purpose,
      accountId,
      now: new Date(),
    });
    return rows.length === 1;
  }
}
