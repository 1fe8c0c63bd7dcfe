'use client';

import { useActionState } from 'react';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import type { TLinkButtonState } from './actions';

const INITIAL: TLinkButtonState = {};

type TProps = {
  action: (previous: TLinkButtonState, data: FormData) => Promise<TLinkButtonState>;
  token: string;
  label: string;
  pendingLabel: string;
};

/**
 * One button that posts an email link's token (confirm, unsubscribe): opening the link does
 * nothing, so a mail scanner that follows every link changes nothing. Works without JavaScript.
 */
export const LinkButtonForm = ({ action, token, label, pendingLabel }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, INITIAL);
  const errorRef = useFocusedError(state);
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="token" value={token} />
      {state.error && !isPending ? (
        <FormError id="link-button-error" focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <SubmitButton label={label} pendingLabel={pendingLabel} isPending={isPending} />
    </form>
  );
};
