'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { FormError } from '@/components/form/form-error';
import { useFocusedError } from '@/components/form/use-focused-error';
import { revokeKey, type TRevokeFormState } from '../../../actions';

const INITIAL: TRevokeFormState = {};

/** "Revoke" or "Keep it". Works without JavaScript. */
export const RevokeForm = ({ keyId }: { keyId: string }) => {
  const [state, formAction, isPending] = useActionState(revokeKey, INITIAL);
  const errorRef = useFocusedError(state);
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      <input type="hidden" name="id" value={keyId} />
      {state.error && !isPending ? (
        <FormError id="revoke-key-error" focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--danger" disabled={isPending}>
          {isPending ? 'Revoking…' : 'Revoke the key'}
        </button>
        <Link href="/developers/keys" className="button button--secondary">
          Keep it
        </Link>
      </div>
    </form>
  );
};
