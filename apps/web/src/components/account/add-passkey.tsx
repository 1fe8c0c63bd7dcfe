'use client';

import { PASSWORD_LENGTH } from '@pets/contract/rules';
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState, useTransition } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';

type TOptionsAnswer = { options: { challenge: string } } | { error: string };

type TProps = {
  /** The area's server actions (app/staff/(back-office)/account/actions.ts, app/developers/actions.ts). */
  start: (confirmation: unknown) => Promise<TOptionsAnswer>;
  finish: (response: unknown, name: unknown) => Promise<{ error?: string; added?: string }>;
  /** The sign-in options (a challenge), for confirming with one of the person's passkeys. */
  confirmStart: () => Promise<TOptionsAnswer>;
  /** Whether the person has a passkey to confirm with instead of the password. */
  hasPasskeys: boolean;
};

const ERROR_ID = 'add-passkey-error';

/** The hint above the button: rendered by the server as it is without JavaScript. */
const HINTS = {
  unknown: 'Adding a passkey needs JavaScript.',
  yes: 'Your device will ask for its screen lock, or a phone or security key.',
  no: 'This browser cannot make passkeys.',
} as const;

/** What the browser's refusal means to the person. */
const registrationProblem = (error: unknown): string => {
  const name = error instanceof Error ? error.name : '';
  if (name === 'InvalidStateError') {
    return 'This device has a passkey for your account already.';
  }
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return 'Adding the passkey was cancelled or took too long. Please try again.';
  }
  return 'This browser could not make a passkey here.';
};

/** What the browser's refusal of the confirming passkey means to the person. */
const confirmationProblem = (error: unknown): string =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
    ? 'Confirming with a passkey was cancelled or took too long. Try again, or use your password.'
    : 'This browser could not use a passkey here. Use your password instead.';

/**
 * "Add a passkey": an optional name and the person's password again (a session alone adds no
 * passkey: it may be borrowed), or, for someone who has one, "Confirm with a passkey instead";
 * then the browser asks the device (or a phone, or a security key) to make one for this site
 * (@simplewebauthn/browser); the server action hands the answer to the API, which checks it and
 * emails the account's owner. It needs JavaScript and WebAuthn: the server renders the buttons
 * disabled and a hint saying so (what a browser without JavaScript keeps); once alive, they are
 * enabled and the hint changes, so nothing moves. The rest of the page (the list, "Remove")
 * works as plain forms. After a refusal the name and password stay as typed.
 */
export const AddPasskey = ({ start, finish, confirmStart, hasPasskeys }: TProps) => {
  const router = useRouter();
  const [support, setSupport] = useState<'unknown' | 'yes' | 'no'>('unknown');
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string>();
  const [isPending, startTransition] = useTransition();
  const errorRef = useRef<HTMLElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    setSupport(browserSupportsWebAuthn() ? 'yes' : 'no');
  }, []);

  useEffect(() => {
    if (error) {
      errorRef.current?.focus();
    }
  }, [error]);

  /** Confirmed (by `confirm`), the new passkey is made and handed to the API. */
  const add = (name: FormDataEntryValue | null, confirm: () => Promise<unknown | undefined>) => {
    startTransition(async () => {
      setError(undefined);
      setAdded(undefined);
      const confirmation = await confirm();
      if (confirmation === undefined) {
        return;
      }
      const started = await start(confirmation);
      if ('error' in started) {
        setError(started.error);
        return;
      }
      let response: unknown;
      try {
        response = await startRegistration({
          optionsJSON: started.options as PublicKeyCredentialCreationOptionsJSON,
        });
      } catch (problem) {
        setError(registrationProblem(problem));
        return;
      }
      const finished = await finish(response, name);
      if (finished.error) {
        setError(finished.error);
        return;
      }
      setAdded(finished.added);
      formRef.current?.reset();
      router.refresh();
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    add(data.get('name'), async () => ({ password: data.get('password') ?? '' }));
  };

  /** "Confirm with a passkey instead": one of the person's passkeys signs a fresh challenge. */
  const withPasskey = () => {
    const form = formRef.current;
    add(form ? new FormData(form).get('name') : null, async () => {
      const options = await confirmStart();
      if ('error' in options) {
        setError(options.error);
        return undefined;
      }
      try {
        return {
          passkey: await startAuthentication({
            optionsJSON: options.options as PublicKeyCredentialRequestOptionsJSON,
          }),
        };
      } catch (problem) {
        setError(confirmationProblem(problem));
        return undefined;
      }
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} className="form" aria-busy={isPending}>
      {error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {error}
        </FormError>
      ) : null}
      {added && !isPending ? (
        <p className="notice" role="status">
          Passkey “{added}” added. You can sign in with it now.
        </p>
      ) : null}
      <Field
        id="passkey-name"
        label="Name (optional)"
        hint="To tell your passkeys apart, such as “Work laptop”."
        outsideErrorId={error ? ERROR_ID : undefined}
      >
        {(control) => (
          <input {...control} name="name" type="text" maxLength={100} className="input" />
        )}
      </Field>
      <Field
        id="passkey-password"
        label="Your password"
        hint="A passkey signs in without your password, so we ask for it first. We email you each passkey added."
        outsideErrorId={error ? ERROR_ID : undefined}
      >
        {(control) => (
          <input
            {...control}
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={PASSWORD_LENGTH.max}
            className="input"
          />
        )}
      </Field>
      {/* One line whatever the browser can do, so nothing moves once the page comes alive. */}
      <p className="field__hint">{HINTS[support]}</p>
      <div className="form__actions">
        <button type="submit" className="button" disabled={support !== 'yes' || isPending}>
          {isPending ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
        {hasPasskeys ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={withPasskey}
            disabled={support !== 'yes' || isPending}
          >
            Confirm with a passkey instead
          </button>
        ) : null}
      </div>
    </form>
  );
};
