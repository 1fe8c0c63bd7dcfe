'use client';

import type { TSavedSearchFilterInput } from '@pets/contract/site';
import { BellRing } from 'lucide-react';
import { useActionState } from 'react';
import { saveSearchAlert, type TSaveSearchState } from '@/app/saved-searches/actions';
import { InputField } from './form/field';
import { FormError } from './form/form-error';
import { SubmitButton } from './form/submit-button';
import { useFocusOnAnswer } from './form/use-focus-on-answer';

const hasAnswer = (state: TSaveSearchState) => Boolean(state.error || state.sentTo);

type TProps = {
  /**
   * The page's listPets query (browse, /match): the API keeps its filters and drops the rest
   * (page size, order, cursor, status: an alert is about animals that became available).
   */
  filter: TSavedSearchFilterInput;
  /** The search in words ("Young dogs, good with children"), said above the form. */
  summary: string;
};

/**
 * "Email me when a new animal matches": an address, POSTed with the page's filter to a server
 * action (works without JavaScript). The API emails a confirmation link first; nothing is sent
 * before it is confirmed, and at most one email a day after.
 */
export const SavedSearchForm = ({ filter, summary }: TProps) => {
  const [state, formAction, isPending] = useActionState(saveSearchAlert, { email: '' });
  const answerRef = useFocusOnAnswer(state, hasAnswer);
  return (
    <section aria-labelledby="saved-search-title" className="panel saved-search">
      <h2 id="saved-search-title" className="saved-search__title">
        <BellRing aria-hidden="true" focusable="false" className="saved-search__icon" />
        Email me when a new animal matches
      </h2>
      <p>
        Your search: <strong>{summary}</strong>. We write at most once a day, only when a new animal
        matches, and every email has a link to stop them.
      </p>
      <form action={formAction} className="form saved-search__form" aria-busy={isPending}>
        <input type="hidden" name="filter" value={JSON.stringify(filter)} />
        <InputField
          id="saved-search-email"
          label="Your email"
          hint="We first send a link to confirm it is yours."
          input={{
            name: 'email',
            type: 'email',
            autoComplete: 'email',
            required: true,
            maxLength: 254,
            defaultValue: state.email,
          }}
        />
        <SubmitButton label="Email me new matches" pendingLabel="Saving…" isPending={isPending} />
      </form>
      <div ref={answerRef}>
        {state.error && !isPending ? (
          <FormError as="div" className="panel">
            <p>{state.error}</p>
          </FormError>
        ) : null}
        {state.sentTo && !isPending ? (
          <div className="notice" role="status">
            <p tabIndex={-1}>
              Almost done: we sent a link to <strong>{state.sentTo}</strong>. Open it and press
              “Confirm my alerts” to start them. Nothing arrived? Check your spam folder.
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
};
