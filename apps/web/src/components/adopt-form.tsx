'use client';

import {
  ADOPTER_EMAIL_MAX_LENGTH,
  ADOPTER_NAME_MAX_LENGTH,
  ADOPTER_PHONE_MAX_LENGTH,
  ORDER_MESSAGE_MAX_LENGTH,
} from '@pets/contract/schemas';
import { CircleAlert } from 'lucide-react';
import Link from 'next/link';
import {
  type ChangeEvent,
  type FormEvent,
  startTransition,
  useActionState,
  useEffect,
  useRef,
  useState,
} from 'react';
import {
  ADOPT_FORM_FIELDS,
  EMPTY_ADOPT_VALUES,
  type TAdoptFormErrors,
  type TAdoptFormField,
  type TAdoptFormState,
  type TAdoptFormValues,
  validateAdoptForm,
} from '@/lib/adopt-form';

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
  message: 'adopter-message',
};

const FieldError = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <p id={id} className="field__error">
      <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
      {message}
    </p>
  ) : null;

/**
 * "Apply to adopt". Checked in the browser with the contract's ZNewOrder before anything is sent;
 * the server action checks again and places the order, sending the hidden token as its
 * Idempotency-Key, so a double click or a resent POST is still one application. Without
 * JavaScript the same form posts to the same action.
 */
export const AdoptForm = ({ petId, petName, token, action }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, {
    values: EMPTY_ADOPT_VALUES,
    fieldErrors: {},
    token,
  });
  const [values, setValues] = useState<TAdoptFormValues>(state.values);
  const [errors, setErrors] = useState<TAdoptFormErrors>(state.fieldErrors);
  const [shownState, setShownState] = useState(state);
  const formErrorRef = useRef<HTMLDivElement>(null);
  const [focusTarget, setFocusTarget] = useState<'first-error' | 'form-error' | undefined>();

  // A new answer from the server: show its errors (its values are what was sent).
  if (shownState !== state) {
    setShownState(state);
    setValues(state.values);
    setErrors(state.fieldErrors);
    setFocusTarget(state.formError ? 'form-error' : 'first-error');
  }

  useEffect(() => {
    if (!focusTarget) {
      return;
    }
    if (focusTarget === 'form-error') {
      formErrorRef.current?.focus();
    } else {
      const field = ADOPT_FORM_FIELDS.find((name) => errors[name]);
      if (field) {
        document.getElementById(FIELD_IDS[field])?.focus();
      }
    }
    setFocusTarget(undefined);
  }, [focusTarget, errors]);

  const onChange = (
    event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>,
    field: TAdoptFormField,
  ) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || state.isTaken) {
      return;
    }
    const validation = validateAdoptForm(petId, values);
    if (!validation.success) {
      setErrors(validation.fieldErrors);
      setFocusTarget('first-error');
      return;
    }
    setErrors({});
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  };

  const describedBy = (field: TAdoptFormField, hint?: string) =>
    [hint, errors[field] ? `${FIELD_IDS[field]}-error` : undefined].filter(Boolean).join(' ') ||
    undefined;

  const input = (
    field: Exclude<TAdoptFormField, 'message'>,
    type: 'text' | 'email' | 'tel',
    autoComplete: string,
    maxLength: number,
    hint?: string,
  ) => (
    <input
      id={FIELD_IDS[field]}
      name={field}
      type={type}
      autoComplete={autoComplete}
      maxLength={maxLength}
      value={values[field]}
      onChange={(event) => onChange(event, field)}
      aria-invalid={errors[field] ? true : undefined}
      aria-describedby={describedBy(field, hint)}
      className="input"
    />
  );

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="form" aria-busy={isPending}>
      <input type="hidden" name="token" value={state.token} />
      {state.formError && !isPending ? (
        <div className="form__error" role="alert" tabIndex={-1} ref={formErrorRef}>
          <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
          <div>
            <p>{state.formError}</p>
            {state.isTaken ? (
              <p>
                <Link href="/?status=available">See the animals still looking for a home</Link>
              </p>
            ) : null}
          </div>
        </div>
      ) : null}

      <div className="field">
        <label htmlFor={FIELD_IDS.name} className="field__label">
          Your name
        </label>
        {input('name', 'text', 'name', ADOPTER_NAME_MAX_LENGTH)}
        <FieldError id={`${FIELD_IDS.name}-error`} message={errors.name} />
      </div>

      <div className="field">
        <label htmlFor={FIELD_IDS.email} className="field__label">
          Email
        </label>
        <p id="adopter-email-hint" className="field__hint">
          We write to you here, and you need it to follow your application.
        </p>
        {input('email', 'email', 'email', ADOPTER_EMAIL_MAX_LENGTH, 'adopter-email-hint')}
        <FieldError id={`${FIELD_IDS.email}-error`} message={errors.email} />
      </div>

      <div className="field">
        <label htmlFor={FIELD_IDS.phone} className="field__label">
          Phone (optional)
        </label>
        <p id="adopter-phone-hint" className="field__hint">
          If you would rather we called.
        </p>
        {input('phone', 'tel', 'tel', ADOPTER_PHONE_MAX_LENGTH, 'adopter-phone-hint')}
        <FieldError id={`${FIELD_IDS.phone}-error`} message={errors.phone} />
      </div>

      <div className="field">
        <label htmlFor={FIELD_IDS.message} className="field__label">
          A few words about your home (optional)
        </label>
        <p id="adopter-message-hint" className="field__hint">
          Who lives with you, a garden, other animals: anything that helps us match {petName} well.
          Up to {ORDER_MESSAGE_MAX_LENGTH} characters.
        </p>
        <textarea
          id={FIELD_IDS.message}
          name="message"
          maxLength={ORDER_MESSAGE_MAX_LENGTH}
          rows={5}
          value={values.message}
          onChange={(event) => onChange(event, 'message')}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy('message', 'adopter-message-hint')}
          className="textarea"
        />
        <FieldError id={`${FIELD_IDS.message}-error`} message={errors.message} />
      </div>

      {state.isTaken ? null : (
        <div className="form__actions">
          <button type="submit" className="button" disabled={isPending}>
            {isPending ? 'Sending…' : 'Send application'}
          </button>
        </div>
      )}
    </form>
  );
};
