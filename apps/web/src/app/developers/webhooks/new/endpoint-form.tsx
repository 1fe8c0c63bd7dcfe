'use client';

import { TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { CopyButton } from '@/components/copy-button';
import { CheckedForm } from '@/components/form/checked-form';
import { ChoiceField, Field } from '@/components/form/field';
import { SubmitButton } from '@/components/form/submit-button';
import { useCheckedForm } from '@/components/form/use-checked-form';
import {
  EMPTY_ENDPOINT,
  ENDPOINT_FIELDS,
  loadPortalChecks,
  type TEndpointField,
} from '@/lib/portal-form-fields';
import { addEndpoint, type TEndpointFormState } from '../actions';

const SUMMARY_ID = 'endpoint-error';
const SECRET_ID = 'endpoint-secret';

const FIELD_IDS: Record<TEndpointField, string> = {
  keyId: 'endpoint-key',
  url: 'endpoint-url',
  // The first choice ("Every event") takes the focus when no event is chosen.
  events: 'endpoint-event-all',
  description: 'endpoint-description',
};

type TProps = {
  keys: { id: string; name: string; start: string }[];
  eventTypes: readonly string[];
  every: string;
  /** The contract's longest address and note. */
  maxLengths: { url: number; description: number };
};

/**
 * The new endpoint's form; once the API has added it, its signing secret, this once (the answer
 * to this POST, never stored). Works without JavaScript.
 */
export const EndpointForm = ({ keys, eventTypes, every, maxLengths }: TProps) => {
  const initialState: TEndpointFormState = {
    values: { ...EMPTY_ENDPOINT, keyId: keys[0]?.id ?? '' },
    fieldErrors: {},
  };
  const form = useCheckedForm({
    action: addEndpoint,
    initialState,
    fields: ENDPOINT_FIELDS,
    fieldIds: FIELD_IDS,
    validate: async (values) => (await loadPortalChecks()).checkEndpoint(values),
  });
  const { state, errors, bind, bindChoice } = form;
  if (state.created) {
    const { keyId, endpoint } = state.created;
    return (
      <section className="issued-key" aria-labelledby="endpoint-secret-heading">
        <h2 id="endpoint-secret-heading">Your endpoint's signing secret</h2>
        <p className="issued-key__warning">
          <TriangleAlert aria-hidden="true" focusable="false" className="button__icon" />
          <span>
            <strong>You won't see this secret again.</strong> Your receiver checks every event's
            signature with it; keep it in its secret settings.
          </span>
        </p>
        <p className="issued-key__box">
          <code id={SECRET_ID} className="issued-key__text">
            {endpoint.secret}
          </code>
        </p>
        <CopyButton targetId={SECRET_ID} label="Copy the secret" />
        <p>
          We send events to {endpoint.url}.{' '}
          <Link href={`/developers/webhooks/${keyId}/${endpoint.id}`}>Send it a test event</Link> to
          check that it answers.
        </p>
      </section>
    );
  }
  return (
    <CheckedForm form={form} summaryId={SUMMARY_ID} onFocus={() => void loadPortalChecks()}>
      <Field id={FIELD_IDS.keyId} label="Key" error={errors.keyId}>
        {(control) => (
          <select {...control} {...bind('keyId')} className="input">
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.start}…)
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id={FIELD_IDS.url}
        label="Address"
        hint="An https address on the public Internet, such as https://example.org/hooks/pets."
        error={errors.url}
      >
        {(control) => (
          <input
            {...control}
            {...bind('url')}
            type="url"
            inputMode="url"
            maxLength={maxLengths.url}
            className="input"
          />
        )}
      </Field>
      <ChoiceField id={FIELD_IDS.events} legend="Events" error={errors.events}>
        <div className="choices">
          <label className="choice">
            <input
              id={FIELD_IDS.events}
              type="checkbox"
              {...bindChoice('events', every)}
              className="choice__input"
            />
            Every event, including kinds added later
          </label>
          {eventTypes.map((type) => (
            <label key={type} className="choice">
              <input type="checkbox" {...bindChoice('events', type)} className="choice__input" />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </ChoiceField>
      <Field
        id={FIELD_IDS.description}
        label="Note (optional)"
        hint="What listens there, for the people of your organisation."
        error={errors.description}
      >
        {(control) => (
          <input
            {...control}
            {...bind('description')}
            type="text"
            maxLength={maxLengths.description}
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Add the endpoint" pendingLabel="Adding…" isPending={form.isPending} />
    </CheckedForm>
  );
};
