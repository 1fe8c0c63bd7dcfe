import { Inject, Injectable } from '@nestjs/common';
import type { TPasskeyConfirmation, TPasskey as TSitePasskey } from '@pets/contract/site';
import { AccountsRepository } from '@pets/store/accounts.repository';
import { recordAudit } from '@pets/store/audit.repository';
import {
  isPasskeyExists,
  PasskeysRepository,
  type TPasskey,
} from '@pets/store/passkeys.repository';
import { SessionsRepository } from '@pets/store/sessions.repository';
import { withTransaction } from '@pets/store/transaction';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Pool } from 'pg';
import type { TCaller } from '../api-keys/caller';
import { CONFIG } from '../app.tokens';
import type { TConfig } from '../config';
import { AppError, invalidRequest } from '../core/app-error';
import type { TPasskeyAddedMailData } from '../mail/templates/passkey-added';
import {
  ACCOUNTS_DEPS,
  AccountsService,
  type TAccountsDeps,
  type TSignIn,
} from './accounts.service';
import { describeDevice } from './device-description';

/**
 * Passkeys (issue 27, slice 5; docs/decisions.md "Passkeys"): WebAuthn through
 * `@simplewebauthn/server`, which checks the attestation and every signature; we keep the
 * credentials and the challenges. The relying party is the site (WEBAUTHN_RP_ID, else SITE_URL's
 * host), the browser never talks to the API: the site's server actions pass options and answers
 * through. Signing in with a passkey starts the same session as a password does
 * (AccountsService.startSession), with `method = 'passkey'`.
 */

/** How long a challenge handed out may be answered. */
const CHALLENGE_TTL_MS = 5 * 60_000;

/** One answer for every failed passkey sign-in: nothing tells an unknown passkey from a bad one. */
const PASSKEY_REFUSED = (): AppError =>
  new AppError(
    'unauthorized',
    'This passkey could not sign you in: it may have been removed, or the attempt took too long. Try again, or use your password.',
  );

const toSitePasskey = (passkey: TPasskey): TSitePasskey => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  backedUp: passkey.backedUp,
});

/** The account id as the authenticator keeps it (the user handle): its decimal digits. */
const userIdOf = (accountId: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(accountId, 'utf8'));

const personOf = (caller: TCaller): { accountId: string; name: string } => {
  if (caller.kind !== 'session' || caller.owner?.type !== 'person') {
    throw new AppError('not_found', 'No such operation.');
  }
  return { accountId: caller.owner.id, name: caller.name };
};

@Injectable()
export class PasskeysService {
  private readonly pool: Pool;

  constructor(
    @Inject(ACCOUNTS_DEPS) private readonly deps: TAccountsDeps,
    @Inject(CONFIG) private readonly config: TConfig,
    private readonly accounts: AccountsService,
  ) {
    this.pool = deps.pool;
  }

  // --- The signed-in person's passkeys ---------------------------------------------------------

  async list(caller: TCaller) {
    const { accountId } = personOf(caller);
    const passkeys = await new PasskeysRepository(this.pool).list(accountId);
    return { passkeys: passkeys.map(toSitePasskey) };
  }

  /**
   * The options of a new passkey, only for a person who just proved it is them: the password
   * again, or a passkey the account has (a session alone may be borrowed or stolen). The
   * challenge handed out is bound to the account, so it is the proof `add` needs.
   */
  async registrationOptions(
    caller: TCaller,
    confirmation: TPasskeyConfirmation,
    visitorIp: string,
  ) {
    const { accountId } = personOf(caller);
    const account =
      'password' in confirmation
        ? await this.accounts.confirmPassword(accountId, confirmation.password, visitorIp)
        : await this.confirmWithPasskey(
            accountId,
            confirmation.passkey as AuthenticationResponseJSON,
            visitorIp,
          );
    const repository = new PasskeysRepository(this.pool);
    const existing = await repository.list(accountId);
    const options = await generateRegistrationOptions({
      rpName: this.config.store.name,
      rpID: this.config.webauthn.rpId,
      userName: account.email,
      userDisplayName: account.name,
      userID: userIdOf(account.id),
      attestationType: 'none',
      // The same authenticator twice is refused by the browser itself.
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: passkey.transports,
      })),
      // Discoverable: signing in needs no email first.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: CHALLENGE_TTL_MS,
    });
    await repository.keepChallenge(options.challenge, 'register', accountId, CHALLENGE_TTL_MS);
    return { options };
  }

  async add(
    caller: TCaller,
    response: RegistrationResponseJSON,
    name: string | undefined,
    visitorIp: string,
  ) {
    const { accountId } = personOf(caller);
    const repository = new PasskeysRepository(this.pool);
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) =>
        repository.consumeChallenge(challenge, 'register', accountId),
      expectedOrigin: this.config.webauthn.origins,
      expectedRPID: this.config.webauthn.rpId,
      requireUserVerification: false,
    }).catch(() => {
      throw invalidRequest(
        'response',
        'The passkey could not be added: its answer did not verify, or took longer than 5 minutes. Try again.',
      );
    });
    if (!verification.verified) {
      throw invalidRequest('response', 'The passkey could not be added: it did not verify.');
    }
    const { credential, credentialBackedUp } = verification.registrationInfo;
    const count = (await repository.list(accountId)).length;
    const account = await new AccountsRepository(this.pool).findById(accountId);
    if (!account) {
      throw new AppError('unauthorized', 'This session has ended: sign in again.');
    }
    const session =
      caller.session === null
        ? null
        : await new SessionsRepository(this.pool).find(accountId, caller.session.id);
    try {
      const passkey = await withTransaction(this.pool, async (client) => {
        const added = await new PasskeysRepository(client).add({
          accountId,
          credentialId: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: name ?? `Passkey ${count + 1}`,
          backedUp: credentialBackedUp,
        });
        await recordAudit(client, {
          actorAccountId: accountId,
          actorApiKeyId: String(caller.apiKeyId),
          actorName: caller.name,
          action: 'passkey.added',
          targetType: 'account',
          targetId: accountId,
          details: { passkeyId: added.id, name: added.name },
          visitorIp,
        });
        // The owner hears of every passkey added, whoever added it: in the same transaction.
        await this.deps.mail.enqueue(client, {
          template: 'passkey-added',
          to: account.email,
          data: {
            name: account.name,
            role: account.role,
            passkeyName: added.name,
            addedAt: added.createdAt.toISOString(),
            device: describeDevice(session?.userAgent ?? null) ?? 'an unknown browser',
            visitorIp,
          } satisfies TPasskeyAddedMailData,
        });
        return added;
      });
      return { passkey: toSitePasskey(passkey) };
    } catch (error) {
      if (isPasskeyExists(error)) {
        throw invalidRequest('response', 'This passkey is registered already.');
      }
      throw error;
    }
  }

  async delete(caller: TCaller, id: string, visitorIp: string): Promise<void> {
    const { accountId } = personOf(caller);
    const deleted = await withTransaction(this.pool, async (client) => {
      const removed = await new PasskeysRepository(client).delete(accountId, id);
      if (removed) {
        await recordAudit(client, {
          actorAccountId: accountId,
          actorApiKeyId: String(caller.apiKeyId),
          actorName: caller.name,
          action: 'passkey.removed',
          targetType: 'account',
          targetId: accountId,
          details: { passkeyId: removed.id, name: removed.name },
          visitorIp,
        });
      }
      return removed;
    });
    if (!deleted) {
      throw new AppError('not_found', `No passkey ${id} of this account.`);
    }
  }

  async rename(caller: TCaller, id: string, name: string, visitorIp: string) {
    const { accountId } = personOf(caller);
    const renamed = await withTransaction(this.pool, async (client) => {
      const repository = new PasskeysRepository(client);
      const before = (await repository.list(accountId)).find((passkey) => passkey.id === id);
      const after = await repository.rename(accountId, id, name);
      if (before && after && before.name !== after.name) {
        await recordAudit(client, {
          actorAccountId: accountId,
          actorApiKeyId: String(caller.apiKeyId),
          actorName: caller.name,
          action: 'passkey.renamed',
          targetType: 'account',
          targetId: accountId,
          details: { passkeyId: after.id, from: before.name, to: after.name },
          visitorIp,
        });
      }
      return after;
    });
    if (!renamed) {
      throw new AppError('not_found', `No passkey ${id} of this account.`);
    }
    return { passkey: toSitePasskey(renamed) };
  }

  /**
   * A passkey of the caller's own account, answering a challenge of `authenticationOptions`:
   * proof it is them, as the password is. A failure counts on the visitor's passkey budget, as a
   * failed passkey sign-in does, and answers 403 in words.
   */
  private async confirmWithPasskey(
    accountId: string,
    response: AuthenticationResponseJSON,
    visitorIp: string,
  ) {
    const throttle = this.deps.throttle;
    const tracker = throttle.passkeyTracker(visitorIp);
    await throttle.assertPasskeyMayTry(tracker);
    const verified = await this.verifyAssertion(response);
    const account =
      verified?.passkey.accountId === accountId
        ? await new AccountsRepository(this.pool).findById(accountId)
        : null;
    if (!verified || !account) {
      await throttle.failPasskey(tracker, visitorIp);
      throw new AppError(
        'forbidden',
        'That passkey did not confirm it is you: use one of your own passkeys, or your password.',
      );
    }
    await new PasskeysRepository(this.pool).recordUse(
      verified.passkey.id,
      verified.newCounter,
      verified.backedUp,
    );
    return account;
  }

  /**
   * A signed answer to one of `authenticationOptions`' challenges (consumed here, once), checked
   * against the passkey it names: that passkey and its new counter, or null.
   */
  private async verifyAssertion(response: AuthenticationResponseJSON) {
    const repository = new PasskeysRepository(this.pool);
    const passkey = await repository.findByCredentialId(response.id);
    if (passkey === null) {
      return null;
    }
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) =>
        repository.consumeChallenge(challenge, 'authenticate', null),
      expectedOrigin: this.config.webauthn.origins,
      expectedRPID: this.config.webauthn.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
      requireUserVerification: false,
    }).catch(() => null);
    const userHandle = response.response.userHandle;
    if (
      !verified?.verified ||
      // The authenticator's user handle, when it gives one, names the passkey's own account.
      (userHandle !== undefined &&
        Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.accountId)
    ) {
      return null;
    }
    return {
      passkey,
      newCounter: verified.authenticationInfo.newCounter,
      backedUp: verified.authenticationInfo.credentialBackedUp,
    };
  }

  // --- Signing in -----------------------------------------------------------------------------

  async authenticationOptions() {
    const options = await generateAuthenticationOptions({
      rpID: this.config.webauthn.rpId,
      // Discoverable credentials: the browser offers the person's passkeys for this site.
      userVerification: 'preferred',
      timeout: CHALLENGE_TTL_MS,
    });
    await new PasskeysRepository(this.pool).keepChallenge(
      options.challenge,
      'authenticate',
      null,
      CHALLENGE_TTL_MS,
    );
    return { options };
  }

  async signIn(
    response: AuthenticationResponseJSON,
    input: Pick<TSignIn, 'area' | 'idleSeconds' | 'userAgent'>,
    visitorIp: string,
  ) {
    const throttle = this.deps.throttle;
    const tracker = throttle.passkeyTracker(visitorIp);
    await throttle.assertPasskeyMayTry(tracker);
    const verified = await this.verifyAssertion(response);
    const account = verified
      ? await new AccountsRepository(this.pool).findById(verified.passkey.accountId)
      : null;
    if (!verified || !account) {
      await throttle.failPasskey(tracker, visitorIp);
      throw PASSKEY_REFUSED();
    }
    await new PasskeysRepository(this.pool).recordUse(
      verified.passkey.id,
      verified.newCounter,
      verified.backedUp,
    );
    return this.accounts.startSession(account, 'passkey', input, visitorIp, undefined);
  }
}

type AuthenticatorTransportFuture = NonNullable<
  RegistrationResponseJSON['response']['transports']
>[number];
