import type { TPasskey } from '@pets/contract/site';
import { StoreTime } from '@/components/store-time';
import { AddPasskey } from './add-passkey';

type TProps = {
  passkeys: readonly TPasskey[];
  /** The area's server actions. */
  remove: (data: FormData) => Promise<void>;
  start: () => Promise<{ options: { challenge: string } } | { error: string }>;
  finish: (response: unknown, name: unknown) => Promise<{ error?: string; added?: string }>;
  isRemoved: boolean;
};

/**
 * The person's passkeys on their account page (both areas): each with when it was added and last
 * used, and "Remove" (a plain form); then "Add a passkey" (needs JavaScript).
 */
export const PasskeysSection = ({ passkeys, remove, start, finish, isRemoved }: TProps) => (
  <section aria-labelledby="passkeys-title">
    <h2 id="passkeys-title">Passkeys</h2>
    <p>
      A passkey signs you in with your device's screen lock, a phone or a security key instead of
      your password. Your password keeps working.
    </p>
    {isRemoved ? (
      <p className="notice" role="status">
        The passkey is removed: it no longer signs you in.
      </p>
    ) : null}
    {passkeys.length === 0 ? (
      <p>You have no passkeys yet.</p>
    ) : (
      <ul className="queue" aria-label="Your passkeys">
        {passkeys.map((passkey) => (
          <li key={passkey.id} className="queue__item">
            <span className="queue__title">{passkey.name}</span>
            <span className="queue__meta">
              Added <StoreTime at={passkey.createdAt} />
              {passkey.lastUsedAt ? (
                <>
                  {' '}
                  · last used <StoreTime at={passkey.lastUsedAt} />
                </>
              ) : (
                ' · not used yet'
              )}
              {passkey.backedUp ? ' · synced between your devices' : ''}
            </span>
            <form action={remove}>
              <input type="hidden" name="id" value={passkey.id} />
              <button
                type="submit"
                className="button button--small button--secondary"
                aria-label={`Remove the passkey ${passkey.name}`}
              >
                Remove
              </button>
            </form>
          </li>
        ))}
      </ul>
    )}
    <AddPasskey start={start} finish={finish} />
  </section>
);
