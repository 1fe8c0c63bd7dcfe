'use client';

import { ADOPTER_EMAIL_MAX_LENGTH } from '@pets/contract/rules';
import { useActionState } from 'react';
import type { TApplicationLookupState } from '@/lib/application-lookup';
import { ApplicationCard } from './application-card';
import { InputField } from './form/field';
import { FormError } from './form/form-error';
import { SubmitButton } from './form/submit-button';
import { useFocusOnAnswer } from './form/use-focus-on-answer';

const hasAnswer = (state: TApplicationLookupState) => Boolean(state.formError || state.application);

type TProps = {
  initialReference: string;
  action: (previous: TApplicationLookupState, data: FormData) => Promise<TApplicationLookupState>;
};

/**
 * The status page's form: reference and email, POSTed to a server action (it works without
 * JavaScript too). The answer replaces nothing the visitor typed.
 */
export const ApplicationLookup = ({ initialReference, action }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, {
    values: { reference: initialReference, email: '' },
  });
  // After an answer, move focus to it, so a screen reader hears it at once.
  const resultRef = useFocusOnAnswer(state, hasAnswer);

  return (
    <>
      <form action={formAction} className="form" aria-busy={isPending}>
        <InputField
          id="lookup-reference"
          label="Reference"
          hint="On your confirmation, such as A-12."
          input={{
            name: 'reference',
            type: 'text',
            autoComplete: 'off',
            required: true,
            maxLength: 40,
            defaultValue: state.values.reference,
          }}
        />
        <InputField
          id="lookup-email"
          label="Email"
          hint="The address you applied with."
          input={{
            name: 'email',
            type: 'email',
            autoComplete: 'email',
            required: true,
            maxLength: ADOPTER_EMAIL_MAX_LENGTH,
            defaultValue: state.values.email,
          }}
        />
        <SubmitButton label="Show my application" pendingLabel="Looking…" isPending={isPending} />
      </form>
      <div ref={resultRef}>
        {state.formError && !isPending ? (
          <FormError as="div" className="panel">
            <p>{state.formError}</p>
          </FormError>
        ) : null}
        {state.application && !isPending ? (
          <ApplicationCard application={state.application} />
        ) : null}
      </div>
    </>
  );
};
