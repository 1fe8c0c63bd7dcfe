'use client';

import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  startRegistration,
} from '@simplewebauthn/browser';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState, useTransition } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';

type TProps = {
  /** The area's server actions (app/staff/(back-office)/account/actions.ts, app/developers/actions.ts). */
  start: () => Promise<{ options: { challenge: string } } | { error: string }>;
  finish: (response: unknown, name: unknown) => Promise<{ error?: string; added?: string }>;
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

/**
 * "Add a passkey": an optional name, then the browser asks the device (or a phone, or a security
 * key) to make one for this site (@simplewebauthn/browser); the server action hands the answer to
 * the API, which checks it. It needs JavaScript and WebAuthn: the server renders the button
 * disabled and a hint saying so (what a browser without JavaScript keeps); once alive, the button
 * is enabled and the hint changes, so nothing moves. The rest of the page (the list, "Remove")
 * works as plain forms.
 */
export const AddPasskey = ({ start, finish }: TProps) => {
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = new FormData(event.currentTarget).get('name');
    startTransition(async () => {
      setError(undefined);
      setAdded(undefined);
      const started = await start();
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
      {/* One line whatever the browser can do, so nothing moves once the page comes alive. */}
      <p className="field__hint">{HINTS[support]}</p>
      <div className="form__actions">
        <button type="submit" className="button" disabled={support !== 'yes' || isPending}>
          {isPending ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </div>
    </form>
  );
};
