'use client';

import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
} from '@simplewebauthn/browser';
import { useEffect, useRef, useState, useTransition } from 'react';
import { FormError } from '@/components/form/form-error';

/** The area's server actions (app/staff/sign-in/actions.ts, app/developers/actions.ts). */
type TProps = {
  start: () => Promise<{ options: { challenge: string } } | { error: string }>;
  finish: (response: unknown, next: unknown) => Promise<{ error: string }>;
  returnTo: string | undefined;
};

const ERROR_ID = 'passkey-sign-in-error';

/** What the browser's refusal means to the person (cancelled, timed out, no passkey here). */
export const passkeyProblem = (error: unknown): string =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
    ? 'The passkey sign-in was cancelled or took too long. Try again, or use your password.'
    : 'This browser could not use a passkey here. Use your password instead.';

/**
 * "Sign in with a passkey": a progressive enhancement beside the password form. It needs
 * JavaScript and a browser with WebAuthn: the server renders the button disabled (so nothing moves
 * when it comes alive), without JavaScript a note says it needs it, and a browser without WebAuthn
 * is told to use the password. The options come from the server action, the browser asks the
 * authenticator (@simplewebauthn/browser), the signed answer goes back to the server action,
 * which sets the same sealed cookie a password sign-in does and redirects.
 */
export const PasskeySignIn = ({ start, finish, returnTo }: TProps) => {
  const [support, setSupport] = useState<'unknown' | 'yes' | 'no'>('unknown');
  const [error, setError] = useState<string>();
  const [isPending, startTransition] = useTransition();
  const errorRef = useRef<HTMLElement>(null);

  useEffect(() => {
    setSupport(browserSupportsWebAuthn() ? 'yes' : 'no');
  }, []);

  useEffect(() => {
    if (error) {
      errorRef.current?.focus();
    }
  }, [error]);

  const signIn = () =>
    startTransition(async () => {
      setError(undefined);
      const started = await start();
      if ('error' in started) {
        setError(started.error);
        return;
      }
      let response: unknown;
      try {
        response = await startAuthentication({
          optionsJSON: started.options as PublicKeyCredentialRequestOptionsJSON,
        });
      } catch (problem) {
        setError(passkeyProblem(problem));
        return;
      }
      const finished = await finish(response, returnTo);
      // On success the action redirects, and there is no answer to read.
      setError(finished?.error);
    });

  return (
    <section className="passkey-sign-in" aria-labelledby="passkey-sign-in-title">
      <h2 id="passkey-sign-in-title" className="passkey-sign-in__title">
        Or use a passkey
      </h2>
      {error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {error}
        </FormError>
      ) : null}
      <noscript>
        <p className="field__hint">Signing in with a passkey needs JavaScript.</p>
      </noscript>
      {support === 'no' ? (
        <p className="field__hint">This browser cannot use passkeys: sign in with your password.</p>
      ) : null}
      <button
        type="button"
        className="button button--secondary"
        onClick={signIn}
        disabled={support !== 'yes' || isPending}
        aria-describedby={error ? ERROR_ID : undefined}
      >
        {isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
    </section>
  );
};
