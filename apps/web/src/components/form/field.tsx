import { CircleAlert } from 'lucide-react';
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/**
 * What a field's control carries, so that a screen reader reads its hint and its error with it.
 * Spread onto the input, select or textarea: `{(control) => <input {...control} ... />}`.
 */
export type TControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type TFieldErrorProps = {
  id: string;
  message: string | undefined;
  /** Given when the error takes the focus itself: it is then also announced as an alert. */
  focusRef?: Ref<HTMLParagraphElement>;
};

/** The message under a field, with its icon; nothing while there is no message. */
export const FieldError = ({ id, message, focusRef }: TFieldErrorProps) => {
  if (!message) {
    return null;
  }
  const alert = focusRef ? { role: 'alert', tabIndex: -1, ref: focusRef } : {};
  return (
    <p id={id} className="field__error" {...alert}>
      <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
      {message}
    </p>
  );
};

const idList = (...ids: (string | undefined)[]): string | undefined =>
  ids.filter(Boolean).join(' ') || undefined;

type TFieldProps = {
  /** The control's id; its hint and error are `<id>-hint` and `<id>-error`. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** The id of an error shown elsewhere (the form's own) that is about this control. */
  outsideErrorId?: string;
  errorFocusRef?: Ref<HTMLParagraphElement>;
  children: (control: TControlProps) => ReactNode;
};

/**
 * One field as every form shows it: the label above, an optional hint, the control, and the
 * error under the field that caused it.
 */
export const Field = ({
  id,
  label,
  hint,
  error,
  outsideErrorId,
  errorFocusRef,
  children,
}: TFieldProps) => {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : outsideErrorId;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        'aria-invalid': errorId ? true : undefined,
        'aria-describedby': idList(hintId, errorId),
      })}
      <FieldError id={`${id}-error`} message={error} focusRef={errorFocusRef} />
    </div>
  );
};

type TInputFieldProps = Omit<TFieldProps, 'children'> & {
  /** The input's own attributes (name, type, autoComplete, ...). */
  input: Omit<InputHTMLAttributes<HTMLInputElement>, 'children' | keyof TControlProps>;
};

/** A field whose control is a one-line input, as most fields are. */
export const InputField = ({ input, ...field }: TInputFieldProps) => (
  <Field {...field}>{(control) => <input {...control} {...input} className="input" />}</Field>
);

type TChoiceFieldProps = {
  /** The id of the first choice, which takes the focus when the field has an error. */
  id: string;
  legend: ReactNode;
  error?: string;
  children: ReactNode;
};

/** A field of radio buttons: a fieldset whose legend is the label, the error under the choices. */
export const ChoiceField = ({ id, legend, error, children }: TChoiceFieldProps) => {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset
      className="field"
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
    >
      <legend className="field__label">{legend}</legend>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
};
