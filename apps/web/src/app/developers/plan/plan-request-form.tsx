'use client';

import { PLAN_TITLES, PLANS, type TPlan } from '@pets/contract/rules';
import { useActionState } from 'react';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { requestPlan, type TPlanFormState } from '../actions';

const INITIAL: TPlanFormState = {};
const ERROR_ID = 'plan-request-error';

/** The plan to ask for (any but the current one) and why. Works without JavaScript. */
export const PlanRequestForm = ({
  current,
  maxMessage,
}: {
  current: TPlan;
  maxMessage: number;
}) => {
  const [state, formAction, isPending] = useActionState(requestPlan, INITIAL);
  const errorRef = useFocusedError(state);
  const outside = state.error ? ERROR_ID : undefined;
  const choices = PLANS.filter((plan) => plan !== current);
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <fieldset className="field">
        <legend className="field__label">The plan you would like</legend>
        <div className="choices">
          {choices.map((plan, index) => (
            <label className="choice" key={plan}>
              <input
                type="radio"
                name="plan"
                value={plan}
                required
                defaultChecked={state.plan ? state.plan === plan : index === 0}
                className="choice__input"
              />
              {PLAN_TITLES[plan]}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        id="plan-message"
        label="Message (optional)"
        hint="What you are building and the traffic you expect: it helps us answer quickly."
        outsideErrorId={outside}
      >
        {(control) => (
          <textarea
            {...control}
            name="message"
            rows={4}
            maxLength={maxMessage}
            defaultValue={state.message}
            className="textarea"
          />
        )}
      </Field>
      <SubmitButton label="Ask for this plan" pendingLabel="Sending…" isPending={isPending} />
    </form>
  );
};
