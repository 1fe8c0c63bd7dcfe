'use client';

import {
  PET_ARRIVED_AT_MIN,
  PET_BREED_MAX_LENGTH,
  PET_DESCRIPTION_MAX_LENGTH,
  PET_NAME_MAX_LENGTH,
  PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH,
  type TCategory,
  ZPetAge,
  ZPetCoatLength,
  ZPetColor,
  ZPetEnergyLevel,
  ZPetSex,
  ZPetSize,
  ZPetStatus,
} from '@pets/contract/schemas';
import { COAT_LABELS, ENERGY_LABELS } from '@/lib/pet-details';
import {
  EMPTY_PET_FORM,
  FEE_CURRENCIES,
  PET_FACT_FIELDS,
  PET_FORM_FIELDS,
  PET_FORM_LABELS,
  type TPetFactField,
  type TPetFormField,
  type TPetFormState,
  validatePetForm,
} from '@/lib/pet-form';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from '@/lib/pet-profile';
import { ChoiceField, Field } from './form/field';
import { FormError } from './form/form-error';
import { SubmitButton } from './form/submit-button';
import { useCheckedForm } from './form/use-checked-form';
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
  // The yes/no details are radios: the first one ("Yes") takes the focus.
  goodWithChildren: 'pet-good-with-children-yes',
  goodWithDogs: 'pet-good-with-dogs-yes',
  goodWithCats: 'pet-good-with-cats-yes',
  houseTrained: 'pet-house-trained-yes',
  spayedNeutered: 'pet-spayed-neutered-yes',
  vaccinated: 'pet-vaccinated-yes',
  specialNeeds: 'pet-special-needs-yes',
  specialNeedsNote: 'pet-special-needs-note',
  energyLevel: 'pet-energy-level',
  coatLength: 'pet-coat-length',
  color1: 'pet-color-1',
  color2: 'pet-color-2',
  color3: 'pet-color-3',
  adoptionFee: 'pet-adoption-fee',
  feeCurrency: 'pet-fee-currency',
};

/** Sex as staff record it: `unknown` is a real answer here ("we cannot tell"), unlike blank. */
const SEX_CHOICES: Record<string, string> = { ...SEX_LABELS, unknown: 'Not known (cannot tell)' };

/** A select's choices from the contract's values and their words: `[value, words]`. */
const choices = <T extends string>(values: readonly T[], words: (value: T) => string) =>
  values.map((value) => [value, words(value)] as const);

const COLOURS = choices(
  ZPetColor.options,
  (color) => color.charAt(0).toUpperCase() + color.slice(1),
);
/** A yes/no detail's three answers: "Not known" sends nothing, which the API stores as `null`. */
const TRI_STATE = [
  ['yes', 'Yes'],
  ['no', 'No'],
  ['', 'Not known'],
] as const;

type TSelectField =
  | 'sex'
  | 'age'
  | 'size'
  | 'energyLevel'
  | 'coatLength'
  | 'color1'
  | 'color2'
  | 'color3';

/** Every select of the form: what its blank option says, and its other choices. */
const SELECTS: Record<
  TSelectField,
  { blank: string; options: readonly (readonly [string, string])[] }
> = {
  sex: { blank: 'Not said', options: choices(ZPetSex.options, (sex) => SEX_CHOICES[sex] ?? sex) },
  age: { blank: 'Not said', options: choices(ZPetAge.options, (age) => AGE_LABELS[age]) },
  size: { blank: 'Not said', options: choices(ZPetSize.options, (size) => SIZE_LABELS[size]) },
  energyLevel: {
    blank: 'Not said',
    options: choices(ZPetEnergyLevel.options, (level) => ENERGY_LABELS[level]),
  },
  coatLength: {
    blank: 'Not said',
    options: choices(ZPetCoatLength.options, (coat) => COAT_LABELS[coat]),
  },
  color1: { blank: 'None', options: COLOURS },
  color2: { blank: 'None', options: COLOURS },
  color3: { blank: 'None', options: COLOURS },
};

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
  const { state, formAction, isPending, values, errors, formErrorRef, bind, onSubmit } =
    useCheckedForm({
      action,
      initialState,
      fields: PET_FORM_FIELDS,
      fieldIds: FIELD_IDS,
      validate: validatePetForm,
    });

  /** One of SELECTS, labelled as PET_FORM_LABELS says. */
  const select = (field: TSelectField) => (
    <Field key={field} id={FIELD_IDS[field]} label={PET_FORM_LABELS[field]} error={errors[field]}>
      {(control) => (
        <select {...control} {...bind(field)} className="select">
          <option value="">{SELECTS[field].blank}</option>
          {SELECTS[field].options.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  /** A yes/no detail: Yes, No and Not known, as radios in a group named by the label. */
  const triState = (field: TPetFactField) => {
    const base = FIELD_IDS[field].replace(/-yes$/, '');
    return (
      <ChoiceField
        key={field}
        id={FIELD_IDS[field]}
        legend={PET_FORM_LABELS[field]}
        error={errors[field]}
      >
        <div className="choices">
          {TRI_STATE.map(([value, words]) => (
            <label key={words} className="choice">
              <input
                id={`${base}-${value || 'unknown'}`}
                type="radio"
                name={field}
                value={value}
                checked={values[field] === value}
                onChange={bind(field).onChange}
                className="choice__input"
              />
              {words}
            </label>
          ))}
        </div>
      </ChoiceField>
    );
  };

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="form" aria-busy={isPending}>
      {state.formError && !isPending ? (
        <FormError focusRef={formErrorRef}>{state.formError}</FormError>
      ) : null}

      <Field
        id={FIELD_IDS.name}
        label="Name"
        hint={<>As the animal is called at the store, up to {PET_NAME_MAX_LENGTH} characters.</>}
        error={errors.name}
      >
        {(control) => (
          <input
            {...control}
            {...bind('name')}
            type="text"
            autoComplete="off"
            maxLength={PET_NAME_MAX_LENGTH}
            className="input"
          />
        )}
      </Field>

      <Field id={FIELD_IDS.categoryId} label="Category" error={errors.categoryId}>
        {(control) => (
          <select {...control} {...bind('categoryId')} className="select">
            <option value="">Choose a category</option>
            {categories.map((category) => (
              <option key={category.id} value={String(category.id)}>
                {category.name}
              </option>
            ))}
          </select>
        )}
      </Field>

      <ChoiceField id={FIELD_IDS.status} legend="Status" error={errors.status}>
        <div className="choices">
          {ZPetStatus.options.map((status) => (
            <label key={status} className="choice">
              <input
                id={`pet-status-${status}`}
                type="radio"
                name="status"
                value={status}
                checked={values.status === status}
                onChange={bind('status').onChange}
                className="choice__input"
              />
              {STATUS_LOOKS[status].label}
            </label>
          ))}
        </div>
      </ChoiceField>

      <fieldset className="form__group">
        <legend className="form__group-title">About the animal</legend>
        <p className="field__hint">
          What adopters choose by. Leave anything you do not know blank.
        </p>
        {(['sex', 'age', 'size'] as const).map(select)}

        <Field
          id={FIELD_IDS.breed}
          label="Breed"
          hint="Free text, such as “Beagle mix” or “Dwarf lop”."
          error={errors.breed}
        >
          {(control) => (
            <input
              {...control}
              {...bind('breed')}
              type="text"
              autoComplete="off"
              maxLength={PET_BREED_MAX_LENGTH}
              className="input"
            />
          )}
        </Field>

        <Field id={FIELD_IDS.arrivedAt} label="Arrival date" error={errors.arrivedAt}>
          {(control) => (
            <input
              {...control}
              {...bind('arrivedAt')}
              type="date"
              min={PET_ARRIVED_AT_MIN}
              className="input input--date"
            />
          )}
        </Field>

        <Field
          id={FIELD_IDS.description}
          label="Story"
          hint={
            <>
              A few words for adopters: character, habits, the home they would love. Plain text, up
              to {PET_DESCRIPTION_MAX_LENGTH} characters; a blank line starts a new paragraph.
            </>
          }
          error={errors.description}
        >
          {(control) => (
            <textarea
              {...control}
              {...bind('description')}
              rows={6}
              maxLength={PET_DESCRIPTION_MAX_LENGTH}
              className="textarea"
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="form__group">
        <legend className="form__group-title">Good with, and needs</legend>
        <p className="field__hint">
          What decides most adoptions. Leave “Not known” where nobody has seen.
        </p>
        {PET_FACT_FIELDS.map(triState)}

        <Field
          id={FIELD_IDS.specialNeedsNote}
          label="About the special needs"
          hint={
            <>
              A condition, a medicine, a diet: what an adopter should know, up to{' '}
              {PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH} characters.
            </>
          }
          error={errors.specialNeedsNote}
        >
          {(control) => (
            <textarea
              {...control}
              {...bind('specialNeedsNote')}
              rows={3}
              maxLength={PET_SPECIAL_NEEDS_NOTE_MAX_LENGTH}
              className="textarea"
            />
          )}
        </Field>

        {(['energyLevel', 'coatLength', 'color1', 'color2', 'color3'] as const).map(select)}

        <Field
          id={FIELD_IDS.adoptionFee}
          label="Adoption fee"
          hint="An amount such as 95.00; 0 for a free adoption; blank when adopters should ask."
          error={errors.adoptionFee}
        >
          {(control) => (
            <input
              {...control}
              {...bind('adoptionFee')}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              maxLength={16}
              className="input"
            />
          )}
        </Field>

        <Field id={FIELD_IDS.feeCurrency} label="Currency of the fee" error={errors.feeCurrency}>
          {(control) => (
            <select {...control} {...bind('feeCurrency')} className="select">
              {(FEE_CURRENCIES.includes(values.feeCurrency)
                ? FEE_CURRENCIES
                : [values.feeCurrency, ...FEE_CURRENCIES]
              ).map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>

      <SubmitButton label={submitLabel} pendingLabel={pendingLabel} isPending={isPending} />
    </form>
  );
};
