'use server';

import { randomUUID } from 'node:crypto';
import { ZIdempotencyKey } from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import {
  adoptFieldErrorsFromApi,
  readAdoptFormValues,
  type TAdoptFormState,
  validateAdoptForm,
} from '@/lib/adopt-form';
import { formatReference } from '@/lib/application-reference';
import { rateLimitedMessage } from '@/lib/messages';
import { placeOrder } from '@/lib/orders-api';

/**
 * Applies to adopt `petId` (bound by the page): validates again with the contract's schema (a
 * browser can be bypassed), places the order with the site's key and the form's token as its
 * Idempotency-Key, and on success goes to the confirmation. Every other outcome comes back to the
 * form with what was typed, so nothing is lost.
 */
export const applyToAdopt = async (
  petId: number,
  _previous: TAdoptFormState,
  data: FormData,
): Promise<TAdoptFormState> => {
  const values = readAdoptFormValues(data);
  const sentToken = ZIdempotencyKey.safeParse(data.get('token'));
  // The token the page rendered; a form without one (a hand-made POST) still gets a key.
  const token = sentToken.success ? sentToken.data : randomUUID();
  const validation = validateAdoptForm(petId, values);
  if (!validation.success) {
    return { values, fieldErrors: validation.fieldErrors, token };
  }

  const result = await placeOrder(validation.data, token);
  if (result.ok && result.data.kind === 'placed') {
    const reference = formatReference(result.data.order.id);
    redirect(`/applications/sent?reference=${encodeURIComponent(reference)}&pet=${petId}`);
  }
  if (result.ok) {
    // The API keeps its refusal for this key: a new one, should they try again later.
    return {
      values,
      fieldErrors: {},
      isTaken: true,
      formError:
        'Sorry: while you were filling in the form, someone else applied for this animal, so ' +
        'your application was not sent. What you wrote is still here.',
      token: randomUUID(),
    };
  }
  const { failure } = result;
  switch (failure.kind) {
    case 'invalid': {
      const fieldErrors = adoptFieldErrorsFromApi(failure.error);
      return {
        values,
        fieldErrors,
        formError:
          Object.keys(fieldErrors).length > 0
            ? undefined
            : 'Some details were not accepted. Please check them.',
        token: randomUUID(),
      };
    }
    case 'not-found':
      return {
        values,
        fieldErrors: {},
        isTaken: true,
        formError:
          'This animal is no longer in our records, so your application was not sent. What you wrote is still here.',
        token: randomUUID(),
      };
    // Not kept by the API (or not known to have arrived): the same token, so a retry that finds
    // the first attempt succeeded gets that application, not a second one.
    case 'rate-limited':
      return {
        values,
        fieldErrors: {},
        formError: rateLimitedMessage(failure.retryAfterSeconds),
        token,
      };
    case 'unavailable':
      return {
        values,
        fieldErrors: {},
        formError:
          "We can't reach our adoption records right now. Your details are still here: please send them again in a minute.",
        token,
      };
    default:
      return {
        values,
        fieldErrors: {},
        formError:
          'Something went wrong on our side. Your details are still here: please send them again.',
        // A 5xx or an answer the site did not expect (such as the key reused with another body):
        // a new key. The API keeps one open application per animal, so this cannot make two.
        token: randomUUID(),
      };
  }
};
