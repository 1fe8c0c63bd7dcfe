'use client';

import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { invitePerson, type TInviteState } from './actions';

const INITIAL: TInviteState = {};
const ERROR_ID = 'invite-error';

/** Email, name and role of the person to invite. Works without JavaScript. */
export const InviteForm = () => {
  const [state, formAction, isPending] = useActionState(invitePerson, INITIAL);
  const errorRef = useFocusedError(state);
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      {state.invited && !isPending ? (
        <p className="notice" role="status">
          The invitation is on its way to {state.invited}. Its link works for 7 days.
        </p>
      ) : null}
      <Field id="invite-email" label="Email" outsideErrorId={outside}>
        {(control) => (
          <input
            {...control}
            name="email"
            type="email"
            maxLength={254}
            required
            className="input"
          />
        )}
      </Field>
      <Field id="invite-name" label="Name" outsideErrorId={outside}>
        {(control) => (
          <input {...control} name="name" type="text" maxLength={100} required className="input" />
        )}
      </Field>
      <Field id="invite-role" label="Role" outsideErrorId={outside}>
        {(control) => (
          <select {...control} name="role" defaultValue="staff" className="input">
            <option value="staff">Staff: applications and animals</option>
            <option value="admin">Admin: also the team</option>
          </select>
        )}
      </Field>
      <SubmitButton label="Send the invitation" pendingLabel="Sending…" isPending={isPending} />
    </form>
  );
};
