'use client';

import { ADOPTER_EMAIL_MAX_LENGTH } from '@pets/contract/rules';
import { useActionState } from 'react';
import type { TApplicationLinksState } from '@/lib/application-lookup';
import { InputField } from './form/field';
import { FormError } from './form/form-error';
import { SubmitButton } from './form/submit-button';
import { useFocusOnAnswer } from './form/use-focus-on-answer';

const hasAnswer = (state: TApplicationLinksState) => Boolean(state.formError || state.sentTo);

type TProps = {
  action: (previous: TApplicationLinksState, data: FormData) => Promise<TApplicationLinksState>;
};

/**
 * "Email me my application links": an address, POSTed to a server action (works without
 * JavaScript). The answer is the same whether or not the address has applications.
 */
export const ApplicationLinksForm = ({ action }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, { email: '' });
  const resultRef = useFocusOnAnswer(state, hasAnswer);

  return (
    <>
      <form action={formAction} className="form" aria-busy={isPending}>
        <InputField
          id="links-email"
          label="Your email"
          hint="The address you applied with: the links go there, never to this page."
          input={{
            name: 'email',
            type: 'email',
            autoComplete: 'email',
            required: true,
            maxLength: ADOPTER_EMAIL_MAX_LENGTH,
            defaultValue: state.email,
          }}
        />
        <SubmitButton
          label="Email me my application links"
          pendingLabel="Sending…"
          isPending={isPending}
        />
      </form>
      <div ref={resultRef}>
        {state.formError && !isPending ? (
          <FormError as="div" className="panel">
            <p>{state.formError}</p>
          </FormError>
        ) : null}
        {state.sentTo && !isPending ? (
          <div className="notice" role="status">
            <p tabIndex={-1}>
              If we have applications from <strong>{state.sentTo}</strong>, an email with a link to
              each is on its way. Each link works for {state.expiresInDays} days. Nothing arrived?
              Check your spam folder, or the address you applied with.
            </p>
          </div>
        ) : null}
      </div>
    </>
  );
};
