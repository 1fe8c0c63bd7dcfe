import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { TConfig } from '../config';
import { AppError } from '../core/app-error';
import type { TRateLimitStore, TWindowSpec } from '../rate-limit/rate-limit.types';

/**
 * Failed sign-ins, counted in the rate-limit store (Redis or memory) so that every replica counts
 * together (docs/decisions.md, "Sign-in throttling"). Two budgets per account, neither of which
 * strangers can use to lock a person out of a device they signed in from before:
 * - per account and visitor (10 per 15 minutes): past it, that visitor is refused for that
 *   account only;
 * - per account from every visitor (50 per hour): past it, only a device with a valid device
 *   token may try, and it is counted on its own budget (the first one's numbers) instead.
 * A success resets nothing. Failed sign-ins are not failed authentications of the site's key:
 * the `authfail:` budget of the address is never touched, so the site keeps working for everyone.
 */
export class SignInThrottle {
  private readonly perVisitor: TWindowSpec;
  private readonly perAccount: TWindowSpec;

  constructor(
    private readonly store: TRateLimitStore,
    limits: TConfig['SIGN_IN_ACCOUNT_LIMIT'],
    private readonly logger: Logger,
  ) {
    this.perVisitor = {
      name: 'signin-visitor',
      limit: limits.perVisitor.limit,
      ttlMs: limits.perVisitor.seconds * 1000,
    };
    this.perAccount = {
      name: 'signin-account',
      limit: limits.perAccount.limit,
      ttlMs: limits.perAccount.seconds * 1000,
    };
  }

  /** The trackers of one attempt: the email's hash (never the address itself) and who tries. */
  trackersOf(email: string, visitor: string, deviceId: string | undefined) {
    const account = `signin:acct:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
    return {
      visitor: `${account}:ip:${visitor}`,
      // A known device counts on a budget of its own, never the account-wide one.
      account: deviceId === undefined ? account : `${account}:dev:${deviceId}`,
      isDevice: deviceId !== undefined,
    };
  }

  /** Throws the 429 when either budget of this attempt is spent; counts nothing. */
  async assertMayTry(trackers: ReturnType<SignInThrottle['trackersOf']>): Promise<void> {
    const [visitor, account] = await Promise.all([
      this.store.peekWindow(trackers.visitor, this.perVisitor),
      this.store.peekWindow(
        trackers.account,
        trackers.isDevice ? this.perVisitor : this.perAccount,
      ),
    ]);
    if (visitor.used >= visitor.limit) {
      throw refusal(
        visitor.resetInMs,
        'Too many failed sign-ins for this account from here. Try again later, or reset your password.',
      );
    }
    if (account.used >= account.limit) {
      throw refusal(
        account.resetInMs,
        'Too many attempts for this account. Use a device you have signed in from, or reset your password.',
      );
    }
  }

  /**
   * Passkey sign-ins name no account before they verify: a failed one (an unknown passkey, a bad
   * signature, a used challenge) counts on the visitor's own budget, the per-visitor numbers.
   */
  passkeyTracker(visitor: string): string {
    return `signin:passkey:ip:${visitor}`;
  }

  async assertPasskeyMayTry(tracker: string): Promise<void> {
    const window = await this.store.peekWindow(tracker, this.perVisitor);
    if (window.used >= window.limit) {
      throw refusal(
        window.resetInMs,
        'Too many failed passkey sign-ins from here. Try again later, or use your password.',
      );
    }
  }

  async failPasskey(tracker: string, visitorAddress: string): Promise<void> {
    const window = await this.store.countInWindow(tracker, this.perVisitor);
    if (window.used === window.limit) {
      this.logger.warn(
        { event: 'account_sign_in_throttled', visitor: visitorAddress, scope: 'passkey' },
        'passkey sign-ins from a visitor throttled',
      );
    }
  }

  /** Counts a failed attempt on both budgets; logs once when one of them becomes spent. */
  async fail(
    trackers: ReturnType<SignInThrottle['trackersOf']>,
    visitorAddress: string,
  ): Promise<void> {
    const accountWindow = trackers.isDevice ? this.perVisitor : this.perAccount;
    const [visitor, account] = await Promise.all([
      this.store.countInWindow(trackers.visitor, this.perVisitor),
      this.store.countInWindow(trackers.account, accountWindow),
    ]);
    if (visitor.used === visitor.limit || account.used === account.limit) {
      this.logger.warn(
        {
          event: 'account_sign_in_throttled',
          account: trackers.account.slice('signin:acct:'.length, 'signin:acct:'.length + 16),
          visitor: visitorAddress,
          scope: account.used === account.limit ? 'account' : 'visitor',
        },
        'sign-ins to an account throttled',
      );
    }
  }
}

const refusal = (resetInMs: number, message: string): AppError => {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new AppError('rate_limited', `${message} (retry after ${seconds} seconds)`, undefined, {
    'Retry-After': String(seconds),
  });
};
