'use client';

import {
  ADOPTER_EMAIL_MAX_LENGTH,
  ADOPTER_NAME_MAX_LENGTH,
  ADOPTER_PHONE_MAX_LENGTH,
  ORDER_HOUSEHOLD_MAX_LENGTH,
  ORDER_MESSAGE_MAX_LENGTH,
  ORDER_OTHER_ANIMALS_MAX_LENGTH,
} from '@pets/contract/rules';
import Link from 'next/link';
import {
  ADOPT_FORM_FIELDS,
  EMPTY_ADOPT_VALUES,
  type TAdoptFormField,
  type TAdoptFormState,
} from '@/lib/adopt-form-fields';
import { Field } from './form/field';
import { FormError } from './form/form-error';
import { SubmitButton } from './form/submit-button';
import { useCheckedForm } from './form/use-checked-form';

type TProps = {
  petId: number;
  petName: string;
  /** A fresh Idempotency-Key, made by the server for this rendering of the form. */
  token: string;
  action: (previous: TAdoptFormState, data: FormData) => Promise<TAdoptFormState>;
};

const FIELD_IDS: Record<TAdoptFormField, string> = {
  name: 'adopter-name',
  email: 'adopter-email',
  phone: 'adopter-phone',
  household: 'adopter-household',
  otherAnimals: 'adopter-other-animals',
  message: 'adopter-message',
};

/**
 * The form's check (the contract's ZNewOrder, so zod and the contract's schemas): loaded when the
 * adopter first focuses a field, not with the page, where it was the longest task of the page's
 * first load on a phone.
 */
const loadCheck = () => import('@/lib/adopt-form');

/**
 * "Apply to adopt". Checked in the browser with the contract's ZNewOrder before anything is sent;
 * the server action checks again and places the order, sending the hidden token as its
 * Idempotency-Key, so a double click or a resent POST is still one application. Without
 * JavaScript the same form posts to the same action.
 */
export const AdoptForm = ({ petId, petName, token, action }: TProps) => {
  const { state, formAction, isPending, errors, formErrorRef, bind, onSubmit } = useCheckedForm({
    action,
    initialState: { values: EMPTY_ADOPT_VALUES, fieldErrors: {}, token },
    fields: ADOPT_FORM_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadCheck()).validateAdoptForm(petId, values),
    isClosed: (current) => Boolean(current.isTaken),
  });

  return (
    <form
      action={formAction}
      onSubmit={onSubmit}
      onFocus={() => void loadCheck()}
      noValidate
      className="form"
      aria-busy={isPending}
    >
      <input type="hidden" name="token" value={state.token} />
      {state.formError && !isPending ? (
        <FormError as="div" focusRef={formErrorRef}>
          <div>
            <p>{state.formError}</p>
            {state.isTaken ? (
              <p>
                <Link href="/?status=available">See the animals still looking for a home</Link>
              </p>
            ) : null}
          </div>
        </FormError>
      ) : null}

      <Field id={FIELD_IDS.name} label="Your name" error={errors.name}>
        {(control) => (
          <input
            {...control}
            {...bind('name')}
            type="text"
            autoComplete="name"
            maxLength={ADOPTER_NAME_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field
        id={FIELD_IDS.email}
        label="Email"
        hint="We write to you here, and you need it to follow your application."
        error={errors.email}
      >
        {(control) => (
          <input
            {...control}
            {...bind('email')}
            type="email"
            autoComplete="email"
            maxLength={ADOPTER_EMAIL_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field
        id={FIELD_IDS.phone}
        label="Phone (optional)"
        hint="If you would rather we called."
        error={errors.phone}
      >
        {(control) => (
          <input
            {...control}
            {...bind('phone')}
            type="tel"
            autoComplete="tel"
            maxLength={ADOPTER_PHONE_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field
        id={FIELD_IDS.household}
        label="Who lives with you (optional)"
        hint="Adults and children (with their ages), and your home: for example, two adults and a 7-year-old, a house with a garden."
        error={errors.household}
      >
        {(control) => (
          <input
            {...control}
            {...bind('household')}
            type="text"
            maxLength={ORDER_HOUSEHOLD_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field
        id={FIELD_IDS.otherAnimals}
        label="Other animals at home (optional)"
        hint="What they are and how old, or none: for example, a 10-year-old cat."
        error={errors.otherAnimals}
      >
        {(control) => (
          <input
            {...control}
            {...bind('otherAnimals')}
            type="text"
            maxLength={ORDER_OTHER_ANIMALS_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field
        id={FIELD_IDS.message}
        label="A few words about your home (optional)"
        hint={
          <>
            A garden, your days, what you hope for: anything else that helps us match {petName}{' '}
            well. Up to {ORDER_MESSAGE_MAX_LENGTH} characters.
          </>
        }
        error={errors.message}
      >
        {(control) => (
          <textarea
            {...control}
            {...bind('message')}
            maxLength={ORDER_MESSAGE_MAX_LENGTH}
            rows={5}
            className="textarea"
          />
        )}
      </Field>

      {state.isTaken ? null : (
        <SubmitButton label="Send application" pendingLabel="Sending…" isPending={isPending} />
      )}
    </form>
  );
};
