import type { TPasskey } from '@pets/contract/site';
import { StoreTime } from '@/components/store-time';
import { AddPasskey } from './add-passkey';

type TProps = {
  passkeys: readonly TPasskey[];
  /** The area's server actions. */
  remove: (data: FormData) => Promise<void>;
  rename: (data: FormData) => Promise<void>;
  start: (confirmation: unknown) => Promise<{ options: { challenge: string } } | { error: string }>;
  finish: (response: unknown, name: unknown) => Promise<{ error?: string; added?: string }>;
  /** The area's passkey sign-in options: confirming with a passkey answers one of them. */
  confirmStart: () => Promise<{ options: { challenge: string } } | { error: string }>;
  isRemoved: boolean;
  /** The account page's `?passkey-renamed=`: how the last rename went. */
  renamed: string | undefined;
};

const RENAMED: ReadonlyMap<string, { words: string; isError: boolean }> = new Map([
  ['done', { words: 'The passkey is renamed.', isError: false }],
  ['invalid', { words: 'Give the passkey a name of 1 to 100 characters.', isError: true }],
  [
    'failed',
    { words: 'The passkey could not be renamed: it may have been removed.', isError: true },
  ],
]);

/**
 * The person's passkeys on their account page (both areas): each with when it was added and last
 * used, "Rename" and "Remove" (plain forms); then "Add a passkey" (needs JavaScript).
 */
export const PasskeysSection = ({
  passkeys,
  remove,
  rename,
  start,
  finish,
  confirmStart,
  isRemoved,
  renamed,
}: TProps) => {
  const renaming = renamed === undefined ? undefined : RENAMED.get(renamed);
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        A passkey signs you in with your device's screen lock, a phone or a security key instead of
        your password. Your password keeps working. A new password (a reset or a change) removes
        every passkey: add them again afterwards.
      </p>
      {isRemoved ? (
        <p className="notice" role="status">
          The passkey is removed: it no longer signs you in.
        </p>
      ) : null}
      {renaming ? (
        <p className="notice" role={renaming.isError ? 'alert' : 'status'}>
          {renaming.words}
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
              <div className="passkey__actions">
                <details className="passkey__rename">
                  <summary
                    className="button button--small button--secondary"
                    aria-label={`Rename the passkey ${passkey.name}`}
                  >
                    Rename
                  </summary>
                  <form action={rename} className="passkey__rename-form">
                    <input type="hidden" name="id" value={passkey.id} />
                    <label className="field__label" htmlFor={`passkey-name-${passkey.id}`}>
                      New name
                    </label>
                    <input
                      id={`passkey-name-${passkey.id}`}
                      name="name"
                      type="text"
                      required
                      maxLength={100}
                      defaultValue={passkey.name}
                      className="input"
                    />
                    <button type="submit" className="button button--small">
                      Save the name
                    </button>
                  </form>
                </details>
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
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey
        start={start}
        finish={finish}
        confirmStart={confirmStart}
        hasPasskeys={passkeys.length > 0}
      />
    </section>
  );
};
