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
import type { TFormValue } from '@/lib/form-values';

/** What a checked form's server action answers: the values sent, and what was wrong with them. */
export type TCheckedFormState<
  TField extends string,
  TValues extends Record<TField, TFormValue> = Record<TField, string>,
> = {
  values: TValues;
  fieldErrors: Partial<Record<TField, string>>;
  /** A problem with the whole submission (rate limited, API unreachable, ...). */
  formError?: string;
};

type TValidation<TField extends string> =
  | { success: true }
  | { success: false; fieldErrors: Partial<Record<TField, string>> };

type TOptions<
  TField extends string,
  TState extends TCheckedFormState<TField, Record<TField, TFormValue>>,
> = {
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
  validate: (
    values: Awaited<TState>['values'],
  ) => TValidation<TField> | Promise<TValidation<TField>>;
  /** True when the form may not be sent any more (the animal was taken meanwhile). */
  isClosed?: (state: Awaited<TState>) => boolean;
  /**
   * Fields the server never sends back (a password): after an answer they keep what the browser
   * has, so a refusal of another field does not make the person type them again.
   */
  secretFields?: readonly TField[];
};

type TControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isList = (value: TFormValue): value is readonly string[] => typeof value !== 'string';

/**
 * The state of a form checked in the browser before its server action checks again: what was
 * typed (and ticked), the errors under the fields, and the focus moved to the first error (or to
 * the form's own error) after a failed submit, so a keyboard or screen reader user lands on the
 * problem. Without JavaScript the same form posts to the same action, which answers the same
 * state: the page comes back with what was sent and the errors.
 */
export const useCheckedForm = <
  TField extends string,
  TState extends TCheckedFormState<TField, Record<TField, TFormValue>>,
>({
  action,
  initialState,
  fields,
  fieldIds,
  validate,
  isClosed,
  secretFields = [],
}: TOptions<TField, TState>) => {
  type TValues = Awaited<TState>['values'];
  const [state, formAction, isPending] = useActionState(action, initialState);
  const [values, setValues] = useState<TValues>(state.values);
  const [errors, setErrors] = useState(state.fieldErrors);
  const [shownState, setShownState] = useState(state);
  const formErrorRef = useRef<HTMLElement>(null);
  const [focusTarget, setFocusTarget] = useState<'first-error' | 'form-error' | undefined>();

  // A new answer from the server: show its errors (its values are what was sent, but secrets).
  if (shownState !== state) {
    setShownState(state);
    setValues((current) => {
      const next = { ...state.values };
      for (const field of secretFields) {
        next[field] = current[field];
      }
      return next;
    });
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

  const change = (field: TField, value: (current: TFormValue) => TFormValue) => {
    setValues((current) => ({ ...current, [field]: value(current[field]) }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** `name`, `value` and `onChange` of a field's control; typing clears the field's error. */
  const bind = (field: TField) => ({
    name: field,
    value: values[field],
    onChange: (event: ChangeEvent<TControl>) => {
      const value = event.currentTarget.value;
      change(field, () => value);
    },
  });

  /**
   * A radio button or a checkbox of a field: `name`, `value`, `checked` and `onChange`. A field
   * whose value is a list (a group of checkboxes) holds every value ticked; a text field the one
   * chosen (a radio), or `value` while ticked and '' while not (a single checkbox).
   */
  const bindChoice = (field: TField, value: string) => {
    const current = values[field];
    return {
      name: field,
      value,
      checked: isList(current) ? current.includes(value) : current === value,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        // A radio's change is always its choosing; a checkbox's may be its unticking.
        const isChecked = event.currentTarget.checked;
        change(field, (was) => {
          if (!isList(was)) {
            return isChecked ? value : '';
          }
          const others = was.filter((each) => each !== value);
          return isChecked ? [...others, value] : others;
        });
      },
    };
  };

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

  return {
    state,
    formAction,
    isPending,
    values,
    errors,
    formErrorRef,
    bind,
    bindChoice,
    onSubmit,
    fields,
    fieldIds,
  };
};
