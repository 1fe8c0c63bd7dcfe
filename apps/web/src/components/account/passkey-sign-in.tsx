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
const HINT_ID = 'passkey-sign-in-hint';

/** The hint under the heading: rendered by the server as it is without JavaScript. */
const HINTS = {
  unknown: 'Signing in with a passkey needs JavaScript.',
  yes: "Your device's screen lock, your phone or a security key.",
  no: 'This browser cannot use passkeys: use your password.',
} as const;

/** What the browser's refusal means to the person (cancelled, timed out, no passkey here). */
export const passkeyProblem = (error: unknown): string =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
    ? 'The passkey sign-in was cancelled or took too long. Try again, or use your password.'
    : 'This browser could not use a passkey here. Use your password instead.';

/**
 * "Sign in with a passkey": a progressive enhancement beside the password form. It needs
 * JavaScript and a browser with WebAuthn: the server renders the button disabled and a hint saying
 * it needs JavaScript (what a browser without it keeps); once alive, the button is enabled and the
 * hint changes, so nothing moves. A browser without WebAuthn is told to use the password. The options come from the server action, the browser asks the
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
      {/* One line whatever the browser can do, so nothing moves once the page comes alive. */}
      <p className="field__hint" id={HINT_ID}>
        {HINTS[support]}
      </p>
      <button
        type="button"
        className="button button--secondary"
        onClick={signIn}
        disabled={support !== 'yes' || isPending}
        aria-describedby={error ? `${ERROR_ID} ${HINT_ID}` : HINT_ID}
      >
        {isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
    </section>
  );
};
