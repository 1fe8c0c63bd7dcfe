'use client';

import { TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { useActionState } from 'react';
import { CopyButton } from '@/components/copy-button';
import { Field } from '@/components/form/field';
import { FormError } from '@/components/form/form-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useFocusedError } from '@/components/form/use-focused-error';
import { addEndpoint, type TEndpointFormState } from '../actions';

const INITIAL: TEndpointFormState = {};
const ERROR_ID = 'endpoint-error';
const SECRET_ID = 'endpoint-secret';

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
  const [state, formAction, isPending] = useActionState(addEndpoint, INITIAL);
  const errorRef = useFocusedError(state);
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
  const outside = state.error ? ERROR_ID : undefined;
  return (
    <form action={formAction} className="form" aria-busy={isPending}>
      {state.error && !isPending ? (
        <FormError id={ERROR_ID} focusRef={errorRef}>
          {state.error}
        </FormError>
      ) : null}
      <Field id="endpoint-key" label="Key" outsideErrorId={outside}>
        {(control) => (
          <select {...control} name="keyId" className="input">
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.start}…)
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        id="endpoint-url"
        label="Address"
        hint="An https address on the public Internet, such as https://example.org/hooks/pets."
        outsideErrorId={outside}
      >
        {(control) => (
          <input
            {...control}
            name="url"
            type="url"
            inputMode="url"
            maxLength={maxLengths.url}
            required
            className="input"
          />
        )}
      </Field>
      <fieldset className="field">
        <legend className="field__label">Events</legend>
        <div className="choices">
          <label className="choice">
            <input type="checkbox" name="events" value={every} className="choice__input" />
            Every event, including kinds added later
          </label>
          {eventTypes.map((type) => (
            <label key={type} className="choice">
              <input type="checkbox" name="events" value={type} className="choice__input" />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        id="endpoint-description"
        label="Note (optional)"
        hint="What listens there, for the people of your organisation."
        outsideErrorId={outside}
      >
        {(control) => (
          <input
            {...control}
            name="description"
            type="text"
            maxLength={maxLengths.description}
            className="input"
          />
        )}
      </Field>
      <SubmitButton label="Add the endpoint" pendingLabel="Adding…" isPending={isPending} />
    </form>
  );
};
