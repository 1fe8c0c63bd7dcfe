'use client';

import {
  type ChangeEvent,
  type FormEvent,
  startTransition,
  useActionState,
  useEffect,
  useRef,
  useState,
} from 'react';

/** What a checked form's server action answers: the values sent, and what was wrong with them. */
export type TCheckedFormState<TField extends string> = {
  values: Record<TField, string>;
  fieldErrors: Partial<Record<TField, string>>;
  /** A problem with the whole submission (rate limited, API unreachable, ...). */
  formError?: string;
};

type TValidation<TField extends string> =
  | { success: true }
  | { success: false; fieldErrors: Partial<Record<TField, string>> };

type TOptions<TField extends string, TState extends TCheckedFormState<TField>> = {
  // Awaited<...>: as React's useActionState types its state.
  action: (previous: Awaited<TState>, data: FormData) => Promise<TState>;
  initialState: Awaited<TState>;
  /** In the form's order, so the first field with a problem gets the focus. */
  fields: readonly TField[];
  /** Each field's control id (the one to focus). */
  fieldIds: Record<TField, string>;
  /**
   * The same check the server action makes, run before anything is sent. It may load its code
   * first (a promise): a form whose check needs zod keeps zod out of the page's first scripts.
   */
  validate: (values: Record<TField, string>) => TValidation<TField> | Promise<TValidation<TField>>;
  /** True when the form may not be sent any more (the animal was taken meanwhile). */
  isClosed?: (state: Awaited<TState>) => boolean;
};

type TControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * The state of a form checked in the browser before its server action checks again: what was
 * typed, the errors under the fields, and the focus moved to the first error (or to the form's
 * own error) after a failed submit, so a keyboard or screen reader user lands on the problem.
 * Without JavaScript the same form posts to the same action.
 */
export const useCheckedForm = <TField extends string, TState extends TCheckedFormState<TField>>({
  action,
  initialState,
  fields,
  fieldIds,
  validate,
  isClosed,
}: TOptions<TField, TState>) => {
  const [state, formAction, isPending] = useActionState(action, initialState);
  const [values, setValues] = useState(state.values);
  const [errors, setErrors] = useState(state.fieldErrors);
  const [shownState, setShownState] = useState(state);
  const formErrorRef = useRef<HTMLElement>(null);
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
      const field = fields.find((name) => errors[name]);
      if (field) {
        document.getElementById(fieldIds[field])?.focus();
      }
    }
    setFocusTarget(undefined);
  }, [focusTarget, errors, fields, fieldIds]);

  /** `name`, `value` and `onChange` of a field's control; typing clears the field's error. */
  const bind = (field: TField) => ({
    name: field,
    value: values[field],
    onChange: (event: ChangeEvent<TControl>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
  });

  const send = (form: HTMLFormElement, validation: TValidation<TField>) => {
    if (!validation.success) {
      setErrors(validation.fieldErrors);
      setFocusTarget('first-error');
      return;
    }
    setErrors({});
    const data = new FormData(form);
    startTransition(() => formAction(data));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending || isClosed?.(state)) {
      return;
    }
    const form = event.currentTarget;
    const validation = validate(values);
    if (validation instanceof Promise) {
      // Its code could not be loaded (offline): the server action checks the same.
      void validation.then(
        (result) => send(form, result),
        () => send(form, { success: true }),
      );
      return;
    }
    send(form, validation);
  };

  return { state, formAction, isPending, values, errors, formErrorRef, bind, onSubmit };
};
