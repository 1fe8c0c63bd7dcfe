'use server';

import { randomUUID } from 'node:crypto';
import { ZIdempotencyKey } from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import type { TLimitName } from '@/edge/visitor-limits';
import {
  adoptFieldErrorsFromApi,
  readAdoptFormValues,
  type TAdoptFormState,
  validateAdoptForm,
} from '@/lib/adopt-form';
import { findPet } from '@/lib/api';
import { emailKey } from '@/lib/email-match';
import { visitorLimits } from '@/lib/limits';
import { rateLimitedMessage, waitInWords } from '@/lib/messages';
import { placeOrder } from '@/lib/orders-api';
import { rememberSentApplication, SENT_PATH } from '@/lib/sent-application';
import { currentVisitor } from '@/lib/visitor';

/** The limits an application is counted against, and what the visitor is told past each. */
const APPLICATION_LIMITS: readonly {
  name: TLimitName;
  /** Who the count is of: the visitor, or the email address (whoever sends it). */
  of: 'visitor' | 'email';
  refusal: (wait: string) => string;
}[] = [
  {
    name: 'apply',
    of: 'visitor',
    refusal: (wait) =>
      `You have sent several applications in a short while. What you wrote is still here: please send it in ${wait}.`,
  },
  {
    name: 'apply-day',
    of: 'visitor',
    refusal: (wait) =>
      `Many applications were sent from here today. What you wrote is still here: please send it in ${wait}, or call the store.`,
  },
  {
    name: 'apply-email',
    of: 'email',
    refusal: (wait) =>
      `This email address has been used for many applications today. What you wrote is still here: please send it in ${wait}, or call the store about the animals you would like to meet.`,
  },
];

/**
 * What an application costs: one of the visitor's APPLY an hour and APPLY-DAY a day, and one of
 * the email address's APPLY-EMAIL a day, whoever sends it (docs/site.md, "Visitors and limits"),
 * taken before the API is asked and given back when no application was placed. One open
 * application per email address and animal is the API's rule (`409 order_already_open`).
 */
const takeApplicationAllowance = async (
  token: string,
  email: string,
): Promise<{ ok: true; giveBack: () => Promise<void> } | { ok: false; formError: string }> => {
  const limits = visitorLimits();
  if (!(await limits.consume('apply-token', token)).ok) {
    // This form was sent before (a double click, a reload): the API answers it as the first time.
    return { ok: true, giveBack: async () => undefined };
  }
  const keys = { visitor: (await currentVisitor()).key, email: emailKey(email) };
  const taken: { name: TLimitName; key: string }[] = [];
  const giveBack = async () => {
    await Promise.all([
      ...taken.map(({ name, key }) => limits.reward(name, key)),
      limits.reward('apply-token', token),
    ]);
  };
  for (const { name, of, refusal } of APPLICATION_LIMITS) {
    const verdict = await limits.consume(name, keys[of]);
    if (!verdict.ok) {
      await giveBack();
      return { ok: false, formError: refusal(waitInWords(verdict.retryAfterSeconds)) };
    }
    taken.push({ name, key: keys[of] });
  }
  return { ok: true, giveBack };
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

  const allowance = await takeApplicationAllowance(token, validation.data.adopter.email);
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
