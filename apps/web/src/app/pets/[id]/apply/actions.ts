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
import { findPet } from '@/lib/api';
import { visitorLimits } from '@/lib/limits';
import { rateLimitedMessage, waitInWords } from '@/lib/messages';
import { placeOrder } from '@/lib/orders-api';
import { rememberSentApplication, SENT_PATH } from '@/lib/sent-application';
import { currentVisitor } from '@/lib/visitor';

/**
 * What an application costs: one of the visitor's APPLY per window (docs/site.md, "Visitors and
 * limits"), taken before the API is asked and given back when no application was placed. One open
 * application per email address and animal is the API's rule (`409 order_already_open`).
 */
const takeApplicationAllowance = async (
  token: string,
): Promise<{ ok: true; giveBack: () => Promise<void> } | { ok: false; formError: string }> => {
  const limits = visitorLimits();
  if (!(await limits.consume('apply-token', token)).ok) {
    // This form was sent before (a double click, a reload): the API answers it as the first time.
    return { ok: true, giveBack: async () => undefined };
  }
  const visitor = (await currentVisitor()).key;
  const perVisitor = await limits.consume('apply', visitor);
  if (!perVisitor.ok) {
    await limits.reward('apply-token', token);
    return {
      ok: false,
      formError: `You have sent several applications in a short while. What you wrote is still here: please send it in ${waitInWords(perVisitor.retryAfterSeconds)}.`,
    };
  }
  return {
    ok: true,
    giveBack: async () => {
      await Promise.all([limits.reward('apply', visitor), limits.reward('apply-token', token)]);
    },
  };
};

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

  const allowance = await takeApplicationAllowance(token);
  if (!allowance.ok) {
    return { values, fieldErrors: {}, formError: allowance.formError, token };
  }
  const result = await placeOrder(validation.data, token);
  if (result.ok && result.data.kind === 'placed') {
    const pet = await findPet(petId);
    await rememberSentApplication({
      orderId: result.data.order.id,
      petId,
      petName: pet.ok ? pet.data.name : 'your animal',
      // Where the store asks adopters to confirm by email: "check your email" instead of thanks.
      confirmBy:
        result.data.order.status === 'unconfirmed' ? result.data.order.adopter.email : undefined,
    });
    redirect(SENT_PATH);
  }
  await allowance.giveBack();
  if (result.ok && result.data.kind === 'already-open') {
    return {
      values,
      fieldErrors: {},
      formError:
        'You have already applied to adopt this animal with this email address, and that ' +
        'application is still open: the store will be in touch about it. Follow it with the ' +
        'link in the email we sent you, or ask for your links on the application status page.',
      token: randomUUID(),
    };
  }
  if (result.ok) {
    // The API keeps its refusal for this key: a new one, should they try again later.
    return {
      values,
      fieldErrors: {},
      isTaken: true,
      formError:
        'Sorry: while you were filling in the form, this animal was set aside for another ' +
        'adopter, so your application was not sent. What you wrote is still here.',
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
        // a new key. The API keeps one open application per email and animal, so this cannot make two.
        token: randomUUID(),
      };
  }
};
