'use client';

import { useActionState } from 'react';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { confirmEmail, type TVerifyState } from '../../actions';

const INITIAL: TVerifyState = {};
const ERROR_ID = 'verify-error';

/** One button that posts the link's token. Works without JavaScript. */
export const VerifyForm = ({ token }: { token: string }) => {
  const [state, formAction, isPending] = useActionState(confirmEmail, INITIAL);
  const errorRef = useFocusedError(state);
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="token" value={token} />
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <SubmitButton
        label="Confirm my email address"
        pendingLabel="Confirming…"
        isPending={isPending}
      />
    </form>
  );
};
