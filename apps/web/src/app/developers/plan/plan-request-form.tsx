'use client';

import { PLAN_TITLES, PLANS, type TPlan } from '@pets/contract/rules';
import { CheckedForm } from '@/components/form/checked-form';
import { ChoiceField, Field } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import { loadPortalChecks, PLAN_FIELDS, type TPlanField } from '@/lib/portal-form-fields';
import { requestPlan, type TPlanFormState } from '../actions';

const SUMMARY_ID = 'plan-request-error';

/**
 * The plan to ask for (any but the current one) and why. A refusal keeps the plan chosen and the
 * message. Works without JavaScript.
 */
export const PlanRequestForm = ({
  current,
  maxMessage,
}: {
  current: TPlan;
  maxMessage: number;
}) => {
  const choices = PLANS.filter((plan) => plan !== current);
  const fieldIds: Record<TPlanField, string> = {
    plan: `plan-${choices[0] ?? 'choice'}`,
    message: 'plan-message',
  };
  const initialState: TPlanFormState = {
    values: { plan: choices[0] ?? '', message: '' },
    fieldErrors: {},
  };
  const form = useCheckedForm({
    action: requestPlan,
    initialState,
    fields: PLAN_FIELDS,
    fieldIds,
    validate: async (values) => (await loadPortalChecks()).checkPlan(values),
  });
  const { errors, bind, bindChoice } = form;
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID} onFocus={() => void loadPortalChecks()}>
      <ChoiceField id={fieldIds.plan} legend="The plan you would like" error={errors.plan}>
        <div className="choices">
          {choices.map((plan) => (
            <label className="choice" key={plan}>
              <input
                id={`plan-${plan}`}
                type="radio"
                {...bindChoice('plan', plan)}
                className="choice__input"
              />
              {PLAN_TITLES[plan]}
            </label>
          ))}
        </div>
      </ChoiceField>
      <Field
        id={fieldIds.message}
        label="Message (optional)"
        hint="What you are building and the traffic you expect: it helps us answer quickly."
        error={errors.message}
      >
        {(control) => (
          <textarea
            {...control}
            {...bind('message')}
            rows={4}
            maxLength={maxMessage}
            className="textarea"
          />
        )}
      </Field>
      <SubmitButton label="Ask for this plan" pendingLabel="Sending…" isPending={form.isPending} />
    </CheckedForm>
  );
};
