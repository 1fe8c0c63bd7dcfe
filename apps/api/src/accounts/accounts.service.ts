import { Inject, Injectable } from '@nestjs/common';
import type { TAuditAction, TSiteAccount, TSiteSession } from '@pets/contract/site';
import type { AccountRole } from '@pets/db';
import {
  AccountsRepository,
  isAccountExists,
  type TAccount,
  type TAccountWithSecret,
} from '@pets/store/accounts.repository';
import { listAudit, recordAudit, type TAuditEntry } from '@pets/store/audit.repository';
import type { MailRepository } from '@pets/store/mail.repository';
import { PasskeysRepository } from '@pets/store/passkeys.repository';
import { PasswordBusyError, type PasswordHasher, passwordProblem } from '@pets/store/password';
import { SessionsRepository, type TSession } from '@pets/store/sessions.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool, PoolClient } from 'pg';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { TCaller } from '../api-keys/caller';
import { SessionActivity } from '../api-keys/session-activity';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { AppError, invalidRequest } from '../core/app-error';
import {
  type AccountLinks,
  accountOfToken,
  type TAccountLinkPurpose,
} from '../links/account-links';
import type { TAccountMailData } from '../mail/mail-templates';
import { assertConfirmedAddress, type TGuardedAction } from './confirmed-address';
import { describeDevice } from './device-description';
import type { SignInThrottle } from './sign-in-throttle';

/**
 * People's accounts and sessions (issue 27). Our own code on well-kept libraries rather than an
 * auth framework (docs/decisions.md, "Accounts: own code, not a framework"): the site is the only
 * client and the browser never talks to the API, so a framework's cookie-setting HTTP handlers
 * would bypass our one admission (identify, rate limits, error bodies) and bring a schema of its
 * own. What we write is small and reuses what the API has: argon2id (@node-rs/argon2) behind a
 * concurrency cap, a session whose credential is an api_keys row (the key cache, revocation and
 * rate limits apply as to any key), HMAC links like the order links, the rate-limit store for
 * throttling, and the mail outbox.
 */

export const ACCOUNTS_DEPS = Symbol('ACCOUNTS_DEPS');
export type TAccountsDeps = {
  pool: Pool;
  hasher: PasswordHasher;
  links: AccountLinks;
  mail: MailRepository;
  throttle: SignInThrottle;
};

/** One answer for an unknown email and a wrong password alike. */
const WRONG_CREDENTIALS = (): AppError =>
  new AppError('unauthorized', 'That email and password do not match.');

const BAD_LINK = (): AppError =>
  new AppError(
    'invalid_request',
    'This link is not valid: it may have expired or been used already. Ask for a new one.',
  );

const busy = (error: unknown): never => {
  if (error instanceof PasswordBusyError) {
    throw new AppError('service_unavailable', error.message, undefined, { 'Retry-After': '1' });
  }
  throw error;
};

const passwordRefusal = (password: string, email: string): void => {
  const problem = passwordProblem(password, email);
  if (problem !== null) {
    throw invalidRequest('password', problem);
  }
};

/** Where each role signs in. */
const AREA_OF: Record<AccountRole, 'staff' | 'developers'> = {
  admin: 'staff',
  staff: 'staff',
  developer: 'developers',
};

/** The state each kind of link is bound to (apps/api/src/links/account-links.ts). */
const bindingOf = (purpose: TAccountLinkPurpose, account: TAccount): string => {
  if (purpose === 'verify') {
    return account.email.toLowerCase();
  }
  if (purpose === 'reset') {
    return account.passwordChangedAt?.toISOString() ?? 'never';
  }
  return account.invitedAt?.toISOString() ?? 'none';
};

const TEMPLATE_OF = {
  verify: 'account-verify',
  reset: 'account-reset',
  invite: 'account-invite',
} as const;

export const toSiteAccount = (
  account: TAccount,
  organizationName: string | null = null,
): TSiteAccount => ({
  id: account.id,
  email: account.email,
  name: account.name,
  role: account.role,
  status: account.status,
  emailVerified: account.emailVerifiedAt !== null,
  organization:
    account.organizationId === null
      ? null
      : { id: account.organizationId, name: organizationName ?? '' },
});

const toSiteSession = (
  session: TSession,
  currentId: string | undefined,
  lastSeenMs = session.lastSeenAt.getTime(),
): TSiteSession => ({
  id: session.id,
  method: session.method === 'passkey' ? 'passkey' : 'password',
  createdAt: session.createdAt.toISOString(),
  lastSeenAt: new Date(lastSeenMs).toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  idleSeconds: session.idleSeconds,
  userAgent: session.userAgent,
  device: describeDevice(session.userAgent),
  visitorIp: session.visitorIp,
  isCurrent: session.id === currentId,
});

/** The person and session a session credential stands for (AdmissionGuard made sure it is one). */
const personOf = (caller: TCaller): { accountId: string; sessionId: string } => {
  if (caller.kind !== 'session' || caller.owner?.type !== 'person' || caller.session === null) {
    throw new AppError('not_found', 'No such operation.');
  }
  return { accountId: caller.owner.id, sessionId: caller.session.id };
};

const actorOf = (
  caller: TCaller,
  visitorIp: string,
): Omit<TAuditEntry, 'action' | 'targetType' | 'targetId'> => ({
  actorAccountId: caller.owner?.type === 'person' ? caller.owner.id : null,
  actorApiKeyId: String(caller.apiKeyId),
  actorName: caller.name,
  visitorIp,
});

export type TSignIn = {
  email: string;
  password: string;
  area: 'staff' | 'developers';
  idleSeconds?: number;
  userAgent?: string;
  deviceToken?: string;
};

@Injectable()
export class AccountsService {
  private readonly pool: Pool;
  private readonly hasher: PasswordHasher;
  private readonly links: AccountLinks;
  private readonly mail: MailRepository;
  private readonly throttle: SignInThrottle;

  constructor(
    @Inject(ACCOUNTS_DEPS) deps: TAccountsDeps,
    @Inject(CONFIG) private readonly config: TConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly activity: SessionActivity,
  ) {
    this.pool = deps.pool;
    this.hasher = deps.hasher;
    this.links = deps.links;
    this.mail = deps.mail;
    this.throttle = deps.throttle;
  }

  // --- Signing in and out -------------------------------------------------------------------

  async signIn(input: TSignIn, visitorIp: string) {
    const accounts = new AccountsRepository(this.pool);
    const account = await accounts.findByEmail(input.email);
    const deviceId = account ? await this.links.deviceOf(account.id, input.deviceToken) : undefined;
    const trackers = this.throttle.trackersOf(input.email, visitorIp, deviceId);
    await this.throttle.assertMayTry(trackers);
    const matches = await this.hasher
      .verify(account?.passwordHash ?? null, input.password)
      .catch(busy);
    if (!account || !matches) {
      await this.throttle.fail(trackers, visitorIp);
      throw WRONG_CREDENTIALS();
    }
    return this.startSession(account, 'password', input, visitorIp, deviceId);
  }

  /**
   * The session of a person who proved who they are (a password, or a passkey): refused when the
   * account is deactivated or signs in elsewhere, else a new session, its credential (shown once)
   * and the audit line. The one place a session starts, whatever the method.
   */
  async startSession(
    account: TAccountWithSecret,
    method: 'password' | 'passkey',
    input: Pick<TSignIn, 'area' | 'idleSeconds' | 'userAgent' | 'deviceToken'>,
    visitorIp: string,
    deviceId: string | undefined,
  ) {
    if (account.status !== 'active') {
      throw new AppError('forbidden', 'This account has been deactivated: ask an administrator.');
    }
    if (AREA_OF[account.role] !== input.area) {
      throw new AppError(
        'forbidden',
        account.role === 'developer'
          ? 'This is a developer account: sign in at the developer portal.'
          : 'This is a staff account: sign in at the back office.',
      );
    }
    const absolute =
      account.role === 'developer'
        ? this.config.SESSION_ABSOLUTE_SECONDS_DEVELOPER
        : this.config.SESSION_ABSOLUTE_SECONDS_STAFF;
    const idleSeconds = Math.min(
      input.idleSeconds ?? this.config.SESSION_IDLE_MAX_SECONDS,
      this.config.SESSION_IDLE_MAX_SECONDS,
      absolute,
    );
    const { session, credential } = await withTransaction(this.pool, async (client) => {
      const started = await new SessionsRepository(client).start({
        accountId: account.id,
        method,
        idleSeconds,
        expiresAt: new Date(Date.now() + absolute * 1000),
        userAgent: input.userAgent?.slice(0, 200) ?? null,
        visitorIp,
        name: account.name,
        // Developers' sessions call the site-only contract alone (permission.ts refuses /v1).
        role: account.role === 'developer' ? 'partner' : 'staff',
        environment: this.config.APP_ENV,
      });
      await recordAudit(client, {
        actorAccountId: account.id,
        actorApiKeyId: null,
        actorName: account.name,
        action: 'session.started',
        targetType: 'session',
        targetId: started.session.id,
        details: { method },
        visitorIp,
      });
      return started;
    });
    return {
      credential,
      session: {
        id: session.id,
        expiresAt: session.expiresAt.toISOString(),
        idleSeconds: session.idleSeconds,
      },
      account: toSiteAccount(account, account.organizationName),
      deviceToken:
        deviceId !== undefined && input.deviceToken !== undefined
          ? input.deviceToken
          : await this.links.deviceToken(account.id),
    };
  }

  async getSession(caller: TCaller) {
    const { accountId, sessionId } = personOf(caller);
    const account = await new AccountsRepository(this.pool).findById(accountId);
    const session = await new SessionsRepository(this.pool).find(accountId, sessionId);
    if (!account || !session || session.endedAt !== null) {
      throw new AppError('unauthorized', 'This session has ended: sign in again.');
    }
    return {
      account: toSiteAccount(account, account.organizationName),
      session: toSiteSession(
        session,
        sessionId,
        Math.max(session.lastSeenAt.getTime(), this.activity.lastSeen(session.id)),
      ),
    };
  }

  async signOut(caller: TCaller, visitorIp: string): Promise<void> {
    const { accountId, sessionId } = personOf(caller);
    await this.endSessions(caller, visitorIp, 'session.ended', (sessions) =>
      sessions.end(accountId, sessionId, 'sign_out'),
    );
  }

  /**
   * The sessions that still work: not ended, before their absolute end, and used within their idle
   * timeout (the later of the database's last use and this process's, as the key lookup judges it;
   * another replica's use reaches the database within about ten seconds).
   */
  async listSessions(caller: TCaller) {
    const { accountId, sessionId } = personOf(caller);
    const sessions = await new SessionsRepository(this.pool).listOpen(accountId);
    const now = Date.now();
    return {
      sessions: sessions.flatMap((session) => {
        const lastSeen = Math.max(session.lastSeenAt.getTime(), this.activity.lastSeen(session.id));
        const idle = lastSeen + session.idleSeconds * 1000 <= now;
        return idle && session.id !== sessionId
          ? []
          : [toSiteSession(session, sessionId, lastSeen)];
      }),
    };
  }

  async revokeSession(caller: TCaller, id: string, visitorIp: string): Promise<void> {
    const { accountId } = personOf(caller);
    const ended = await this.endSessions(caller, visitorIp, 'session.revoked', (sessions) =>
      sessions.end(accountId, id, 'revoked'),
    );
    if (ended === 0) {
      throw new AppError('not_found', `No open session ${id} of this account.`);
    }
  }

  async revokeAllSessions(caller: TCaller, visitorIp: string): Promise<{ ended: number }> {
    const { accountId } = personOf(caller);
    const ended = await this.endSessions(
      caller,
      visitorIp,
      'session.ended_everywhere',
      (sessions) => sessions.endAll(accountId, 'everywhere'),
    );
    return { ended };
  }

  /**
   * A signed-in person proves again that they know the password (changing it, adding a passkey):
   * a borrowed or stolen session is not enough. A wrong one counts on the sign-in throttle of
   * the account and visitor, as at the sign-in form, so a session cannot be used to guess it.
   */
  async confirmPassword(
    accountId: string,
    password: string,
    visitorIp: string,
  ): Promise<TAccountWithSecret> {
    const account = await new AccountsRepository(this.pool).findById(accountId);
    if (!account) {
      throw new AppError('unauthorized', 'This session has ended: sign in again.');
    }
    const trackers = this.throttle.trackersOf(account.email, visitorIp, undefined);
    await this.throttle.assertMayTry(trackers);
    const matches = await this.hasher.verify(account.passwordHash, password).catch(busy);
    if (!matches) {
      await this.throttle.fail(trackers, visitorIp);
      throw new AppError('forbidden', 'The current password is not right.');
    }
    return account;
  }

  /**
   * A new password from the person signed in: every other session ends and every passkey is
   * removed (a new password starts clean: whoever borrowed the session or added a passkey is
   * out); this session, which just proved the password, stays.
   */
  async changePassword(
    caller: TCaller,
    currentPassword: string,
    newPassword: string,
    visitorIp: string,
  ): Promise<void> {
    const { accountId, sessionId } = personOf(caller);
    const account = await this.confirmPassword(accountId, currentPassword, visitorIp);
    passwordRefusal(newPassword, account.email);
    const hash = await this.hasher.hash(newPassword).catch(busy);
    const hashes = await withTransaction(this.pool, async (client) => {
      await new AccountsRepository(client).setPassword(accountId, hash);
      const ended = await new SessionsRepository(client).endAll(accountId, 'password', sessionId);
      const removed = await new PasskeysRepository(client).deleteAll(accountId);
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action: 'account.password_changed',
        targetType: 'account',
        targetId: accountId,
        details: { sessionsEnded: ended.length, passkeysRemoved: removed.length },
      });
      return ended;
    });
    this.evict(hashes);
  }

  // --- Sign-up, verification, reset, invitations ---------------------------------------------

  async signUp(
    input: { email: string; password: string; name: string; organizationName: string },
    visitorIp: string,
  ) {
    passwordRefusal(input.password, input.email);
    const hash = await this.hasher.hash(input.password).catch(busy);
    try {
      return await withTransaction(this.pool, async (client) => {
        const accounts = new AccountsRepository(client);
        const organization = await accounts.createOrganization(input.organizationName);
        const account = await accounts.create({
          email: input.email,
          name: input.name,
          role: 'developer',
          status: 'active',
          passwordHash: hash,
          emailVerifiedAt: null,
          organizationId: organization.id,
          invitedById: null,
        });
        await recordAudit(client, {
          actorAccountId: account.id,
          actorApiKeyId: null,
          actorName: account.name,
          action: 'account.signed_up',
          targetType: 'account',
          targetId: account.id,
          details: { organizationId: organization.id },
          visitorIp,
        });
        await this.queueLink(client, 'verify', account);
        return { account: toSiteAccount(account, organization.name) };
      });
    } catch (error) {
      if (isAccountExists(error)) {
        throw invalidRequest(
          'email',
          'An account with this email address exists already: sign in, or reset its password.',
        );
      }
      throw error;
    }
  }

  /** A verification link used: the address confirmed, once (a second use is a used link). */
  async verifyEmail(token: string) {
    const account = await this.accountOfLink('verify', token);
    const verified = await new AccountsRepository(this.pool).verifyEmail(account.id, account.email);
    if (!verified) {
      throw BAD_LINK();
    }
    return { account: toSiteAccount(verified, account.organizationName) };
  }

  /**
   * Queues the verify email again for the caller's own account, while its address is not
   * confirmed; at most 3 an hour to one address, like reset links. Silent otherwise.
   */
  async resendVerification(caller: TCaller): Promise<void> {
    const account = await new AccountsRepository(this.pool).findById(personOf(caller).accountId);
    if (account?.status !== 'active' || account.emailVerifiedAt !== null) {
      return;
    }
    await withTransaction(this.pool, (client) =>
      this.mail.enqueueWithinHourlyLimit(client, this.linkMail('verify', account), 3),
    );
  }

  /** Queues a reset email when an active account has this address; the same answer either way. */
  async requestReset(email: string): Promise<void> {
    const account = await new AccountsRepository(this.pool).findByEmail(email);
    if (account?.status !== 'active') {
      return;
    }
    await withTransaction(this.pool, (client) =>
      this.mail.enqueueWithinHourlyLimit(client, this.linkMail('reset', account), 3),
    );
  }

  /**
   * A reset link used: the new password, every session ended and every passkey removed, in one
   * transaction. The statement that sets the password is the one that spends the link (it
   * matches only while the password is the one the link was made for), so of two uses at once
   * exactly one changes anything; the other is told the link is used.
   */
  async resetPassword(token: string, password: string, visitorIp: string) {
    const account = await this.accountOfLink('reset', token);
    if (account.status !== 'active') {
      throw BAD_LINK();
    }
    passwordRefusal(password, account.email);
    const hash = await this.hasher.hash(password).catch(busy);
    const { updated, hashes } = await withTransaction(this.pool, async (client) => {
      const changed = await new AccountsRepository(client).resetPassword(
        account.id,
        hash,
        account.passwordChangedAt,
      );
      if (!changed) {
        throw BAD_LINK();
      }
      const ended = await new SessionsRepository(client).endAll(account.id, 'reset');
      const removed = await new PasskeysRepository(client).deleteAll(account.id);
      await recordAudit(client, {
        actorAccountId: account.id,
        actorApiKeyId: null,
        actorName: account.name,
        action: 'account.password_reset',
        targetType: 'account',
        targetId: account.id,
        details: { sessionsEnded: ended.length, passkeysRemoved: removed.length },
        visitorIp,
      });
      return { updated: changed, hashes: ended };
    });
    this.evict(hashes);
    return { account: toSiteAccount(updated, account.organizationName) };
  }

  /** An invitation used, once: its statement matches only the invitation the link was made for. */
  async acceptInvite(token: string, name: string, password: string, visitorIp: string) {
    const account = await this.accountOfLink('invite', token);
    const invitedAt = account.invitedAt;
    if (invitedAt === null) {
      throw BAD_LINK();
    }
    passwordRefusal(password, account.email);
    const hash = await this.hasher.hash(password).catch(busy);
    const accepted = await withTransaction(this.pool, async (client) => {
      const updated = await new AccountsRepository(client).acceptInvite(
        account.id,
        name,
        hash,
        invitedAt,
      );
      if (updated) {
        await recordAudit(client, {
          actorAccountId: account.id,
          actorApiKeyId: null,
          actorName: updated.name,
          action: 'account.invitation_accepted',
          targetType: 'account',
          targetId: account.id,
          visitorIp,
        });
      }
      return updated;
    });
    if (!accepted) {
      throw BAD_LINK();
    }
    return { account: toSiteAccount(accepted) };
  }

  // --- The team (admins) ---------------------------------------------------------------------

  /**
   * A page of the audit log, newest first; days are UTC days, `to` included; `targetType` with
   * `targetId` is one thing's history (an animal's: `pet` and its id).
   */
  async listAudit(query: {
    actor?: string | undefined;
    action?: string | undefined;
    targetType?: string | undefined;
    targetId?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
    before?: string | undefined;
    limit: number;
  }) {
    const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
    const page = await listAudit(this.pool, {
      actorAccountId: query.actor,
      action: query.action,
      targetType: query.targetType,
      targetId: query.targetId,
      from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
      to: query.to ? dayAfter(query.to) : undefined,
      before: query.before,
      limit: query.limit,
    });
    return {
      entries: page.entries.map((entry) => ({
        id: entry.id,
        at: entry.at.toISOString(),
        actorAccountId: entry.actorAccountId,
        actorName: entry.actorName,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: entry.details,
      })),
      nextBefore: page.nextBefore,
    };
  }

  async listTeam() {
    const accounts = await new AccountsRepository(this.pool).list();
    return {
      accounts: accounts
        .filter((account) => account.role !== 'developer')
        .map((account) => toSiteAccount(account)),
    };
  }

  async invite(
    caller: TCaller,
    input: { email: string; name: string; role: 'admin' | 'staff' },
    visitorIp: string,
  ) {
    await this.assertCallerConfirmed(caller, 'inviting people');
    try {
      return await withTransaction(this.pool, async (client) => {
        const account = await new AccountsRepository(client).create({
          email: input.email,
          name: input.name,
          role: input.role,
          status: 'invited',
          passwordHash: null,
          emailVerifiedAt: null,
          organizationId: null,
          invitedById: personOf(caller).accountId,
        });
        await recordAudit(client, {
          ...actorOf(caller, visitorIp),
          action: 'account.invited',
          targetType: 'account',
          targetId: account.id,
          details: { name: account.name, role: input.role },
        });
        await this.queueLink(client, 'invite', account, caller.name);
        return { account: toSiteAccount(account) };
      });
    } catch (error) {
      if (isAccountExists(error)) {
        throw invalidRequest('email', 'An account with this email address exists already.');
      }
      throw error;
    }
  }

  async resendInvite(caller: TCaller, id: string, visitorIp: string) {
    await this.assertCallerConfirmed(caller, 'inviting people');
    return withTransaction(this.pool, async (client) => {
      const account = await new AccountsRepository(client).reinvite(id);
      if (!account) {
        throw new AppError('not_found', `No invited account ${id}.`);
      }
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action: 'account.invitation_resent',
        targetType: 'account',
        targetId: id,
        details: { name: account.name },
      });
      await this.queueLink(client, 'invite', account, caller.name);
      return { account: toSiteAccount(account) };
    });
  }

  async changeRole(caller: TCaller, id: string, role: 'admin' | 'staff', visitorIp: string) {
    return this.changeTeamMember(
      caller,
      id,
      visitorIp,
      'account.role_changed',
      async (accounts, target) => {
        if (target.role === role) {
          return target;
        }
        if (target.role === 'admin') {
          await this.assertNotLastAdmin(accounts, target);
        }
        return accounts.setRole(id, role);
      },
      { role },
    );
  }

  async deactivate(caller: TCaller, id: string, visitorIp: string) {
    let hashes: string[] = [];
    const result = await this.changeTeamMember(
      caller,
      id,
      visitorIp,
      'account.deactivated',
      async (accounts, target, client) => {
        if (target.role === 'admin' && target.status === 'active') {
          await this.assertNotLastAdmin(accounts, target);
        }
        const updated = await accounts.setStatus(id, 'deactivated');
        hashes = await new SessionsRepository(client).endAll(id, 'deactivated');
        return updated;
      },
    );
    this.evict(hashes);
    return result;
  }

  async reactivate(caller: TCaller, id: string, visitorIp: string) {
    return this.changeTeamMember(
      caller,
      id,
      visitorIp,
      'account.reactivated',
      async (accounts, target) =>
        target.status === 'deactivated' ? accounts.setStatus(id, 'active') : target,
    );
  }

  // --- Helpers --------------------------------------------------------------------------------

  /** The signed-in person's address must be confirmed for `action` (confirmed-address.ts). */
  private async assertCallerConfirmed(caller: TCaller, action: TGuardedAction): Promise<void> {
    const account = await new AccountsRepository(this.pool).findById(personOf(caller).accountId);
    if (!account) {
      throw new AppError('unauthorized', 'This session has ended: sign in again.');
    }
    assertConfirmedAddress(account, action);
  }

  /**
   * An admin's change to another staff or admin account, in one transaction with its audit entry.
   * Nobody changes their own role or status here (an admin cannot lock themself out), and
   * developers are not the team's.
   */
  private async changeTeamMember(
    caller: TCaller,
    id: string,
    visitorIp: string,
    action: Extract<TAuditAction, `account.${string}`>,
    change: (
      accounts: AccountsRepository,
      target: TAccount,
      client: PoolClient,
    ) => Promise<TAccount | null>,
    details: Record<string, unknown> = {},
  ) {
    if (personOf(caller).accountId === id) {
      throw new AppError(
        'forbidden',
        'You cannot change your own role or status: ask another admin.',
      );
    }
    return withTransaction(this.pool, async (client) => {
      const accounts = new AccountsRepository(client);
      const target = await accounts.findById(id);
      if (!target || target.role === 'developer') {
        throw new AppError('not_found', `No staff or admin account ${id}.`);
      }
      const updated = await change(accounts, target, client);
      if (!updated) {
        throw new AppError('not_found', `No staff or admin account ${id}.`);
      }
      await recordAudit(client, {
        ...actorOf(caller, visitorIp),
        action,
        targetType: 'account',
        targetId: id,
        // Named as they were then, so the log reads the same after a rename.
        details: { name: target.name, ...details },
      });
      return { account: toSiteAccount(updated) };
    });
  }

  /** Refuses to take away the last active admin (the admins locked until the transaction ends). */
  private async assertNotLastAdmin(accounts: AccountsRepository, target: TAccount): Promise<void> {
    const admins = await accounts.lockActiveAdmins();
    if (admins.length <= 1 && admins.includes(target.id)) {
      throw new AppError(
        'forbidden',
        'This is the last active admin: make someone else admin first.',
      );
    }
  }

  /** Ends sessions in one transaction with its audit entry, then drops their credentials here. */
  private async endSessions(
    caller: TCaller,
    visitorIp: string,
    action: Extract<TAuditAction, `session.${string}`>,
    end: (sessions: SessionsRepository) => Promise<string[]>,
  ): Promise<number> {
    const hashes = await withTransaction(this.pool, async (client) => {
      const ended = await end(new SessionsRepository(client));
      if (ended.length > 0) {
        await recordAudit(client, {
          ...actorOf(caller, visitorIp),
          action,
          targetType: 'account',
          targetId: personOf(caller).accountId,
          details: { sessions: ended.length },
        });
      }
      return ended;
    });
    this.evict(hashes);
    return hashes.length;
  }

  private evict(hashes: readonly string[]): void {
    for (const hash of hashes) {
      this.apiKeys.evict(hash);
    }
  }

  /** The account a link names, once its MAC checks out against the account's state now. */
  private async accountOfLink(purpose: TAccountLinkPurpose, token: string) {
    const id = accountOfToken(token);
    const account = id === undefined ? null : await new AccountsRepository(this.pool).findById(id);
    if (!account || !(await this.links.verify(purpose, token, bindingOf(purpose, account)))) {
      throw BAD_LINK();
    }
    return account;
  }

  private linkMail(purpose: TAccountLinkPurpose, account: TAccount, invitedBy?: string) {
    const data: TAccountMailData = {
      accountId: account.id,
      name: account.name,
      role: account.role,
      binding: bindingOf(purpose, account),
      ...(invitedBy === undefined ? {} : { invitedBy }),
    };
    return { template: TEMPLATE_OF[purpose], to: account.email, data };
  }

  private async queueLink(
    client: PoolClient,
    purpose: TAccountLinkPurpose,
    account: TAccount,
    invitedBy?: string,
  ): Promise<void> {
    await this.mail.enqueue(client, this.linkMail(purpose, account, invitedBy));
  }
}
