'use client';

import {
  PET_ARRIVED_AT_MIN,
  PET_BREED_MAX_LENGTH,
  PET_DESCRIPTION_MAX_LENGTH,
  PET_NAME_MAX_LENGTH,
  type TCategory,
  ZPetAge,
  ZPetSex,
  ZPetSize,
  ZPetStatus,
} from '@pets/contract/schemas';
import { CircleAlert } from 'lucide-react';
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
  EMPTY_PET_FORM,
  PET_FORM_FIELDS,
  type TPetFormErrors,
  type TPetFormField,
  type TPetFormState,
  type TPetFormValues,
  validatePetForm,
} from '@/lib/pet-form';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from '@/lib/pet-profile';
import { STATUS_LOOKS } from './status-badge';

type TProps = {
  categories: TCategory[];
  action: (previous: TPetFormState, data: FormData) => Promise<TPetFormState>;
  /** What the form starts with: empty to add an animal, the animal's values to edit it. */
  initialState?: TPetFormState;
  submitLabel?: string;
  pendingLabel?: string;
};

const FIELD_IDS: Record<TPetFormField, string> = {
  name: 'pet-name',
  categoryId: 'pet-category',
  status: 'pet-status-available',
  sex: 'pet-sex',
  age: 'pet-age',
  size: 'pet-size',
  breed: 'pet-breed',
  arrivedAt: 'pet-arrived-at',
  description: 'pet-description',
};

/** Sex as staff record it: `unknown` is a real answer here ("we cannot tell"), unlike blank. */
const SEX_CHOICES: Record<string, string> = { ...SEX_LABELS, unknown: 'Not known (cannot tell)' };

const FieldError = ({ id, message }: { id: string; message: string | undefined }) =>
  message ? (
    <p id={id} className="field__error">
      <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
      {message}
    </p>
  ) : null;

/**
 * "Add an animal". Checked in the browser with the contract's ZNewPet before anything is sent;
 * the server action checks again and sends it to the API, whose `400` details come back under the
 * fields they name. Without JavaScript the same form posts to the same action.
 */
export const PetForm = ({
  categories,
  action,
  initialState = EMPTY_PET_FORM,
  submitLabel = 'Add animal',
  pendingLabel = 'Adding…',
}: TProps) => {
  const [state, formAction, isPending] = useActionState(action, initialState);
  const [values, setValues] = useState<TPetFormValues>(state.values);
  const [errors, setErrors] = useState<TPetFormErrors>(state.fieldErrors);
  const [shownState, setShownState] = useState(state);
  const formErrorRef = useRef<HTMLParagraphElement>(null);
  const [focusTarget, setFocusTarget] = useState<'first-error' | 'form-error' | undefined>();

  // A new answer from the server: show its errors (its values are what was sent).
  if (shownState !== state) {
    setShownState(state);
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
      const field = PET_FORM_FIELDS.find((name) => errors[name]);
      if (field) {
        document.getElementById(FIELD_IDS[field])?.focus();
      }
    }
    setFocusTarget(undefined);
  }, [focusTarget, errors]);

  const onChange = (
    event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>,
    field: TPetFormField,
  ) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) {
      return;
    }
    const validation = validatePetForm(values);
    if (!validation.success) {
      setErrors(validation.fieldErrors);
      setFocusTarget('first-error');
      return;
    }
    setErrors({});
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  };

  const describedBy = (field: TPetFormField, hint?: string) =>
    [hint, errors[field] ? `${FIELD_IDS[field]}-error` : undefined].filter(Boolean).join(' ') ||
    undefined;

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="form" aria-busy={isPending}>
      {state.formError && !isPending ? (
        <p className="form__error" role="alert" tabIndex={-1} ref={formErrorRef}>
          <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
          {state.formError}
        </p>
      ) : null}

      <div className="field">
        <label htmlFor={FIELD_IDS.name} className="field__label">
          Name
        </label>
        <p id="pet-name-hint" className="field__hint">
          As the animal is called at the store, up to {PET_NAME_MAX_LENGTH} characters.
        </p>
        <input
          id={FIELD_IDS.name}
          name="name"
          type="text"
          autoComplete="off"
          maxLength={PET_NAME_MAX_LENGTH}
          value={values.name}
          onChange={(event) => onChange(event, 'name')}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy('name', 'pet-name-hint')}
          className="input"
        />
        <FieldError id={`${FIELD_IDS.name}-error`} message={errors.name} />
      </div>

      <div className="field">
        <label htmlFor={FIELD_IDS.categoryId} className="field__label">
          Category
        </label>
        <select
          id={FIELD_IDS.categoryId}
          name="categoryId"
          value={values.categoryId}
          onChange={(event) => onChange(event, 'categoryId')}
          aria-invalid={errors.categoryId ? true : undefined}
          aria-describedby={describedBy('categoryId')}
          className="select"
        >
          <option value="">Choose a category</option>
          {categories.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {category.name}
            </option>
          ))}
        </select>
        <FieldError id={`${FIELD_IDS.categoryId}-error`} message={errors.categoryId} />
      </div>

      <fieldset
        className="field"
        aria-invalid={errors.status ? true : undefined}
        aria-describedby={describedBy('status')}
      >
        <legend className="field__label">Status</legend>
        <div className="choices">
          {ZPetStatus.options.map((status) => (
            <label key={status} className="choice">
              <input
                id={`pet-status-${status}`}
                type="radio"
                name="status"
                value={status}
                checked={values.status === status}
                onChange={(event) => onChange(event, 'status')}
                className="choice__input"
              />
              {STATUS_LOOKS[status].label}
            </label>
          ))}
        </div>
        <FieldError id={`${FIELD_IDS.status}-error`} message={errors.status} />
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__group-title">About the animal</legend>
        <p className="field__hint">
          What adopters choose by. Leave anything you do not know blank.
        </p>
        {(
          [
            ['sex', 'Sex', ZPetSex.options, SEX_CHOICES],
            ['age', 'Age', ZPetAge.options, AGE_LABELS],
            ['size', 'Size when grown', ZPetSize.options, SIZE_LABELS],
          ] as const
        ).map(([field, label, options, labels]) => (
          <div className="field" key={field}>
            <label htmlFor={FIELD_IDS[field]} className="field__label">
              {label}
            </label>
            <select
              id={FIELD_IDS[field]}
              name={field}
              value={values[field]}
              onChange={(event) => onChange(event, field)}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={describedBy(field)}
              className="select"
            >
              <option value="">Not said</option>
              {options.map((option) => (
                <option key={option} value={option}>
                  {(labels as Record<string, string>)[option]}
                </option>
              ))}
            </select>
            <FieldError id={`${FIELD_IDS[field]}-error`} message={errors[field]} />
          </div>
        ))}

        <div className="field">
          <label htmlFor={FIELD_IDS.breed} className="field__label">
            Breed
          </label>
          <p id="pet-breed-hint" className="field__hint">
            Free text, such as “Beagle mix” or “Dwarf lop”.
          </p>
          <input
            id={FIELD_IDS.breed}
            name="breed"
            type="text"
            autoComplete="off"
            maxLength={PET_BREED_MAX_LENGTH}
            value={values.breed}
            onChange={(event) => onChange(event, 'breed')}
            aria-invalid={errors.breed ? true : undefined}
            aria-describedby={describedBy('breed', 'pet-breed-hint')}
            className="input"
          />
          <FieldError id={`${FIELD_IDS.breed}-error`} message={errors.breed} />
        </div>

        <div className="field">
          <label htmlFor={FIELD_IDS.arrivedAt} className="field__label">
            Arrival date
          </label>
          <input
            id={FIELD_IDS.arrivedAt}
            name="arrivedAt"
            type="date"
            min={PET_ARRIVED_AT_MIN}
            value={values.arrivedAt}
            onChange={(event) => onChange(event, 'arrivedAt')}
            aria-invalid={errors.arrivedAt ? true : undefined}
            aria-describedby={describedBy('arrivedAt')}
            className="input input--date"
          />
          <FieldError id={`${FIELD_IDS.arrivedAt}-error`} message={errors.arrivedAt} />
        </div>

        <div className="field">
          <label htmlFor={FIELD_IDS.description} className="field__label">
            Story
          </label>
          <p id="pet-description-hint" className="field__hint">
            A few words for adopters: character, habits, the home they would love. Plain text, up to{' '}
            {PET_DESCRIPTION_MAX_LENGTH} characters; a blank line starts a new paragraph.
          </p>
          <textarea
            id={FIELD_IDS.description}
            name="description"
            rows={6}
            maxLength={PET_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => onChange(event, 'description')}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy('description', 'pet-description-hint')}
            className="textarea"
          />
          <FieldError id={`${FIELD_IDS.description}-error`} message={errors.description} />
        </div>
      </fieldset>

      <div className="form__actions">
        <button type="submit" className="button" disabled={isPending}>
          {isPending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
};
