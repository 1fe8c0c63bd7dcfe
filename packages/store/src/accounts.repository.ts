import { type AccountRole, type AccountStatus, prepare, sql, type TQueryable } from '@pets/db';
import { isUniqueViolation } from './transaction';

/**
 * The accounts and organizations tables (issue 27): people who sign in, with an argon2id password
 * hash (./password.ts), and developers' organisations. Emails are unique whatever their case (an
 * index on lower(email)); lookups go through that index. On a pool, or a transaction's client.
 */

/** Another account has this email address already. */
export class AccountExistsError extends Error {
  readonly kind = 'account-exists';

  constructor() {
    super('An account with this email address exists already.');
  }
}

export const isAccountExists = (error: unknown): error is AccountExistsError =>
  error instanceof Error && (error as { kind?: unknown }).kind === 'account-exists';

const ACCOUNT_COLUMNS = [
  'accounts.id',
  'accounts.email',
  'accounts.name',
  'accounts.role',
  'accounts.status',
  'accounts.password_changed_at as passwordChangedAt',
  'accounts.email_verified_at as emailVerifiedAt',
  'accounts.organization_id as organizationId',
  'accounts.invited_at as invitedAt',
  'accounts.created_at as createdAt',
] as const;

export type TAccount = {
  id: string;
  email: string;
  name: string;
  role: AccountRole;
  status: AccountStatus;
  passwordChangedAt: Date | null;
  emailVerifiedAt: Date | null;
  organizationId: string | null;
  invitedAt: Date | null;
  createdAt: Date;
};

/** An account with what signing in checks: its password hash and its organisation's name. */
export type TAccountWithSecret = TAccount & {
  passwordHash: string | null;
  organizationName: string | null;
};

export type TNewAccount = {
  email: string;
  name: string;
  role: AccountRole;
  status: AccountStatus;
  passwordHash: string | null;
  emailVerifiedAt: Date | null;
  organizationId: string | null;
  invitedById: string | null;
};

const INSERT_ORGANIZATION = prepare((db, p: { name: string }) =>
  db.insertInto('organizations').values({ name: p.name }).returning(['id', 'name']),
);

const INSERT_ACCOUNT = prepare((db, p: TNewAccount & { now: Date }) =>
  db
    .insertInto('accounts')
    .values({
      email: p.email,
      name: p.name,
      role: p.role,
      status: p.status,
      password_hash: p.passwordHash,
      password_changed_at: sql<Date | null>`case when ${p.passwordHash}::text is null then null else ${p.now}::timestamptz end`,
      email_verified_at: p.emailVerifiedAt,
      organization_id: p.organizationId,
      invited_by_id: p.invitedById,
      invited_at: sql<Date | null>`case when ${p.status}::account_status = 'invited' then ${p.now}::timestamptz else null end`,
    })
    .returning(ACCOUNT_COLUMNS),
);

const BY_EMAIL = prepare((db, p: { email: string }) =>
  db
    .selectFrom('accounts')
    .leftJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      ...ACCOUNT_COLUMNS,
      'accounts.password_hash as passwordHash',
      'organizations.name as organizationName',
    ])
    .where(sql<string>`lower(accounts.email)`, '=', sql<string>`lower(${p.email})`),
);

const BY_ID = prepare((db, p: { id: string }) =>
  db
    .selectFrom('accounts')
    .leftJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      ...ACCOUNT_COLUMNS,
      'accounts.password_hash as passwordHash',
      'organizations.name as organizationName',
    ])
    .where('accounts.id', '=', p.id),
);

const LIST = prepare((db, _p: Record<string, never>) =>
  db.selectFrom('accounts').select(ACCOUNT_COLUMNS).orderBy('accounts.id', 'asc'),
);

/** The people who run the back office and can be written to: active admins and staff. */
const ACTIVE_ADMINS = prepare((db, _p: Record<string, never>) =>
  db
    .selectFrom('accounts')
    .select(['name', 'email'])
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .orderBy('id', 'asc'),
);

/** A new password: activates an invited account, and ends every older reset and invite link. */
const SET_PASSWORD = prepare((db, p: { id: string; passwordHash: string; now: Date }) =>
  db
    .updateTable('accounts')
    .set({
      password_hash: p.passwordHash,
      password_changed_at: p.now,
      status: sql<AccountStatus>`case when status = 'invited' then 'active'::account_status else status end`,
      invited_at: null,
    })
    .where('id', '=', p.id)
    .returning(ACCOUNT_COLUMNS),
);

/**
 * A reset link used: the new password, only while the password is still the one the link was
 * made for (`password_changed_at`, what its MAC covers). The statement that checks the link is
 * the one that spends it, so of two uses at once exactly one matches a row.
 */
const RESET_PASSWORD = prepare(
  (db, p: { id: string; passwordHash: string; now: Date; boundChangedAt: Date | null }) =>
    db
      .updateTable('accounts')
      .set({ password_hash: p.passwordHash, password_changed_at: p.now, invited_at: null })
      .where('id', '=', p.id)
      .where('status', '=', 'active')
      .where(
        sql<boolean>`password_changed_at is not distinct from ${p.boundChangedAt}::timestamptz`,
      )
      .returning(ACCOUNT_COLUMNS),
);

/**
 * An invitation accepted: the person's name and password; the email is proven by the link. Only
 * while the account is invited by the invitation the link was made for (`invited_at`, what its
 * MAC covers): one statement checks and spends it.
 */
const ACCEPT_INVITE = prepare(
  (db, p: { id: string; name: string; passwordHash: string; now: Date; boundInvitedAt: Date }) =>
    db
      .updateTable('accounts')
      .set({
        name: p.name,
        password_hash: p.passwordHash,
        password_changed_at: p.now,
        status: 'active',
        invited_at: null,
        email_verified_at: sql<Date>`coalesce(email_verified_at, ${p.now}::timestamptz)`,
      })
      .where('id', '=', p.id)
      .where('status', '=', 'invited')
      .where('invited_at', '=', p.boundInvitedAt)
      .returning(ACCOUNT_COLUMNS),
);

/**
 * A verification link used: the address confirmed, once. Only while the account has the address
 * the link was made for and it is not confirmed yet, so of two uses at once exactly one matches.
 */
const VERIFY_EMAIL = prepare((db, p: { id: string; email: string; now: Date }) =>
  db
    .updateTable('accounts')
    .set({ email_verified_at: p.now })
    .where('id', '=', p.id)
    .where('email_verified_at', 'is', null)
    .where(sql<string>`lower(email)`, '=', sql<string>`lower(${p.email})`)
    .returning(ACCOUNT_COLUMNS),
);

const SET_ROLE = prepare((db, p: { id: string; role: AccountRole }) =>
  db
    .updateTable('accounts')
    .set({ role: p.role })
    .where('id', '=', p.id)
    .returning(ACCOUNT_COLUMNS),
);

const SET_STATUS = prepare((db, p: { id: string; status: AccountStatus }) =>
  db
    .updateTable('accounts')
    .set({ status: p.status })
    .where('id', '=', p.id)
    .returning(ACCOUNT_COLUMNS),
);

const REINVITE = prepare((db, p: { id: string; now: Date }) =>
  db
    .updateTable('accounts')
    .set({ invited_at: p.now })
    .where('id', '=', p.id)
    .where('status', '=', 'invited')
    .returning(ACCOUNT_COLUMNS),
);

/**
 * The active admins, locked for the rest of the transaction (FOR UPDATE): two admins demoting each
 * other at once run one after the other, so the last active admin always stays.
 */
const LOCK_ACTIVE_ADMINS = prepare((db, _p: Record<string, never>) =>
  db
    .selectFrom('accounts')
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .forUpdate(),
);

const toAccount = <T extends { id: string; organizationId: string | null }>(row: T): T => ({
  ...row,
  id: String(row.id),
  organizationId: row.organizationId === null ? null : String(row.organizationId),
});

export class AccountsRepository {
  constructor(private readonly db: TQueryable) {}

  async createOrganization(name: string): Promise<{ id: string; name: string }> {
    const { rows } = await INSERT_ORGANIZATION.execute(this.db, { name });
    const row = rows[0] as { id: string; name: string };
    return { id: String(row.id), name: row.name };
  }

  /** A new account; AccountExistsError when its email (in any case) is taken. */
  async create(account: TNewAccount): Promise<TAccount> {
    try {
      const { rows } = await INSERT_ACCOUNT.execute(this.db, { ...account, now: new Date() });
      return toAccount(rows[0] as TAccount);
    } catch (error) {
      if (isUniqueViolation(error, 'accounts_email_lower_key')) {
        throw new AccountExistsError();
      }
      throw error;
    }
  }

  async findByEmail(email: string): Promise<TAccountWithSecret | null> {
    const row = (await BY_EMAIL.execute(this.db, { email })).rows[0];
    return row ? toAccount(row as TAccountWithSecret) : null;
  }

  async findById(id: string): Promise<TAccountWithSecret | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) {
      return null;
    }
    const row = (await BY_ID.execute(this.db, { id })).rows[0];
    return row ? toAccount(row as TAccountWithSecret) : null;
  }

  async list(): Promise<TAccount[]> {
    const { rows } = await LIST.execute(this.db, {});
    return rows.map((row) => toAccount(row as TAccount));
  }

  /** Active admins, oldest first: who hears about decisions waiting for an admin. */
  async activeAdmins(): Promise<{ name: string; email: string }[]> {
    const { rows } = await ACTIVE_ADMINS.execute(this.db, {});
    return rows;
  }

  async setPassword(id: string, passwordHash: string, now = new Date()): Promise<TAccount | null> {
    const row = (await SET_PASSWORD.execute(this.db, { id, passwordHash, now })).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  /**
   * A reset link spent: the new password, if the password is still the one changed at
   * `boundChangedAt` (the link's); null when another use (or a change) came first.
   */
  async resetPassword(
    id: string,
    passwordHash: string,
    boundChangedAt: Date | null,
    now = new Date(),
  ): Promise<TAccount | null> {
    const row = (await RESET_PASSWORD.execute(this.db, { id, passwordHash, now, boundChangedAt }))
      .rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  /**
   * Activates an invited account with its name and password, if it is still invited by the
   * invitation sent at `boundInvitedAt` (the link's); null when another use came first.
   */
  async acceptInvite(
    id: string,
    name: string,
    passwordHash: string,
    boundInvitedAt: Date,
  ): Promise<TAccount | null> {
    const now = new Date();
    const row = (
      await ACCEPT_INVITE.execute(this.db, { id, name, passwordHash, now, boundInvitedAt })
    ).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  /**
   * Marks the email verified, if the account still has that email and it is not verified yet;
   * null otherwise (the link is used).
   */
  async verifyEmail(id: string, email: string, now = new Date()): Promise<TAccount | null> {
    const row = (await VERIFY_EMAIL.execute(this.db, { id, email, now })).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  async setRole(id: string, role: AccountRole): Promise<TAccount | null> {
    const row = (await SET_ROLE.execute(this.db, { id, role })).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  async setStatus(id: string, status: AccountStatus): Promise<TAccount | null> {
    const row = (await SET_STATUS.execute(this.db, { id, status })).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  /** A new invitation time for an invited account: its older invite links stop working. */
  async reinvite(id: string, now = new Date()): Promise<TAccount | null> {
    const row = (await REINVITE.execute(this.db, { id, now })).rows[0];
    return row ? toAccount(row as TAccount) : null;
  }

  /** The ids of the active admins, locked until the transaction ends (use on a transaction). */
  async lockActiveAdmins(): Promise<string[]> {
    const { rows } = await LOCK_ACTIVE_ADMINS.execute(this.db, {});
    return rows.map((row) => String(row.id));
  }
}
