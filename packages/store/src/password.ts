import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_LENGTH } from '@pets/contract/rules';

/** @node-rs/argon2's `Algorithm.Argon2id` (an ambient const enum, so not importable here). */
const ARGON2ID = 2;

/**
 * Passwords of people's accounts (issue 27): argon2id with OWASP's floor (19 MiB, 2 passes, one
 * lane) through @node-rs/argon2, a well-kept native binding that hashes on libuv's pool. Hashing is
 * deliberately expensive, so a process runs at most `concurrency` hashes at once: past that the
 * caller is told to come back (PasswordBusyError, the API's 503 with Retry-After), and a flood of
 * sign-ins cannot take the machine's cores from everything else.
 */

/** OWASP's argon2id recommendation (m=19456 KiB, t=2, p=1). */
export const PASSWORD_MEMORY_KIB = 19_456;
/** The least memory cost accepted anywhere but tests' own configuration: 8 MiB. */
export const PASSWORD_MEMORY_FLOOR_KIB = 8_192;

/** Every hashing slot is taken: try again in a second. */
export class PasswordBusyError extends Error {
  constructor() {
    super('Too many sign-ins are being checked right now; try again in a second.');
  }
}

export type TPasswordHasherSettings = {
  /** argon2 memory cost in KiB (PASSWORD_HASH_MEMORY_KIB); OWASP's 19456 unless a test lowers it. */
  memoryKiB: number;
  /** Hashes (and verifications) at once in this process (PASSWORD_HASH_CONCURRENCY). */
  concurrency: number;
};

export const DEFAULT_PASSWORD_SETTINGS: TPasswordHasherSettings = {
  memoryKiB: PASSWORD_MEMORY_KIB,
  concurrency: 2,
};

/**
 * Why a new password is refused, in a sentence for the person, or null when it is fine: the
 * contract's PASSWORD_LENGTH (counted in characters, not UTF-16 units) and not the email address
 * itself. No composition rules (NIST SP 800-63B).
 */
export const passwordProblem = (password: string, email?: string): string | null => {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) {
    return `The password must be at least ${PASSWORD_LENGTH.min} characters long.`;
  }
  if (length > PASSWORD_LENGTH.max) {
    return `The password must be at most ${PASSWORD_LENGTH.max} characters long.`;
  }
  if (email !== undefined && password.trim().toLowerCase() === email.trim().toLowerCase()) {
    return 'The password must not be the email address.';
  }
  return null;
};

export class PasswordHasher {
  private running = 0;
  private dummy: Promise<string> | undefined;

  constructor(private readonly settings: TPasswordHasherSettings = DEFAULT_PASSWORD_SETTINGS) {}

  /** An argon2id PHC string of the password. Throws PasswordBusyError past the concurrency cap. */
  hash(password: string): Promise<string> {
    return this.slot(() => this.hashNow(password));
  }

  /**
   * Whether the password matches the stored hash. With no hash (an unknown email, an invited
   * account), the password is still checked against a fixed dummy hash, so the time taken says
   * nothing about whether the account exists; the answer is then always false.
   */
  verify(stored: string | null, password: string): Promise<boolean> {
    return this.slot(async () => {
      if (stored === null) {
        await verify(await this.dummyHash(), password).catch(() => false);
        return false;
      }
      return verify(stored, password).catch(() => false);
    });
  }

  private hashNow(password: string): Promise<string> {
    return hash(password, {
      algorithm: ARGON2ID,
      memoryCost: this.settings.memoryKiB,
      timeCost: 2,
      parallelism: 1,
    });
  }

  private dummyHash(): Promise<string> {
    this.dummy ??= this.hashNow('not the password of any account: a timing decoy');
    return this.dummy;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.settings.concurrency) {
      throw new PasswordBusyError();
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
    }
  }
}
