'use server';

import { ORDER_LINK_TOKEN_PATTERN, orderStatusPagePath } from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import { storeConfig } from '@/env';
import { findPet } from '@/lib/api';
import {
  NOT_FOUND_MESSAGE,
  type TApplicationLinksState,
  type TApplicationLookupState,
} from '@/lib/application-lookup';
import { parseReference } from '@/lib/application-reference';
import { toApplicationView } from '@/lib/application-view';
import { isSameEmail } from '@/lib/email-match';
import { visitorLimits } from '@/lib/limits';
import { rateLimitedMessage, waitInWords } from '@/lib/messages';
import { confirmOrderByLink, getOrder, sendOrderLinks } from '@/lib/orders-api';
import { currentVisitor } from '@/lib/visitor';
import { withdrawApplication } from '@/lib/withdrawal-api';

const text = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * Finds an application by its reference and the email it was made with. A malformed reference,
 * an unknown one, one placed elsewhere and a wrong email all get the same answer (the same words,
 * and for the last three the same API call), so the page tells a stranger nothing about which
 * applications exist. POSTed, so the email never lands in an address bar or a log.
 */
export const lookUpApplication = async (
  _previous: TApplicationLookupState,
  data: FormData,
): Promise<TApplicationLookupState> => {
  const values = { reference: text(data, 'reference'), email: text(data, 'email') };
  if (values.reference.trim() === '' || values.email.trim() === '') {
    return {
      values,
      formError: 'Enter both the reference of your application and your email address.',
    };
  }
  // Counted before the API is asked: a visitor has LOOKUP lookups per window, right or wrong, so
  // nobody can try a thousand email addresses against one reference.
  const allowed = await visitorLimits().consume('lookup', (await currentVisitor()).key);
  if (!allowed.ok) {
    return {
      values,
      formError: `You have looked up applications many times in a short while. Please try again in ${waitInWords(allowed.retryAfterSeconds)}.`,
    };
  }
  const orderId = parseReference(values.reference);
  const order = orderId === undefined ? undefined : await getOrder(orderId);
  if (
    order &&
    !order.ok &&
    order.failure.kind !== 'not-found' &&
    order.failure.kind !== 'invalid'
  ) {
    return {
      values,
      formError:
        order.failure.kind === 'rate-limited'
          ? rateLimitedMessage(order.failure.retryAfterSeconds)
          : "We can't reach our adoption records right now. Please try again in a minute.",
    };
  }
  // Compared even when there is no order, so a miss takes about as long as a wrong email.
  const storedEmail = order?.ok ? order.data.adopter.email : 'nobody@invalid';
  const isMatch = isSameEmail(values.email, storedEmail) && order?.ok === true;
  if (!isMatch || !order?.ok) {
    return { values, formError: NOT_FOUND_MESSAGE, isNotFound: true };
  }
  const pet = await findPet(order.data.petId);
  return {
    values,
    application: toApplicationView(order.data, pet.ok ? pet.data.name : undefined, storeConfig()),
  };
};

/**
 * "Email me my application links": asks the API to email the address a link to each of its
 * applications. Counted per visitor before the API is asked (the API bounds the emails per
 * address too); the answer never says whether the address has applications.
 */
export const sendApplicationLinks = async (
  _previous: TApplicationLinksState,
  data: FormData,
): Promise<TApplicationLinksState> => {
  const email = text(data, 'email');
  if (email.trim() === '') {
    return { email, formError: 'Enter the email address you applied with.' };
  }
  const allowed = await visitorLimits().consume('links', (await currentVisitor()).key);
  if (!allowed.ok) {
    return {
      email,
      formError: `You have asked for links several times in a short while. Please try again in ${waitInWords(allowed.retryAfterSeconds)}.`,
    };
  }
  const sent = await sendOrderLinks(email.trim());
  if (sent.ok) {
    return { email, sentTo: sent.data.email, expiresInDays: sent.data.expiresInDays };
  }
  switch (sent.failure.kind) {
    case 'invalid':
      return {
        email,
        formError: 'That does not look like an email address. Check it and try again.',
      };
    case 'rate-limited':
      return { email, formError: rateLimitedMessage(sent.failure.retryAfterSeconds) };
    default:
      return {
        email,
        formError: "We can't reach our adoption records right now. Please try again in a minute.",
      };
  }
};

/**
 * "Confirm my application", on the page a private link opens: a button, never the link itself,
 * since mail scanners open links. Back to the same page, which shows where the application
 * stands now (confirmed by this press or an earlier one, or closed); `?confirm=failed` when the
 * API could not be reached.
 */
export const confirmApplication = async (data: FormData): Promise<void> => {
  const token = text(data, 'token');
  if (!ORDER_LINK_TOKEN_PATTERN.test(token)) {
    redirect('/applications/status');
  }
  const confirmed = await confirmOrderByLink(token);
  const isAnswered =
    confirmed.ok || confirmed.failure.kind === 'not-found' || confirmed.failure.kind === 'invalid';
  redirect(
    isAnswered ? orderStatusPagePath(token) : `${orderStatusPagePath(token)}?confirm=failed`,
  );
};

/**
 * "Yes, withdraw my application", on the confirmation of the page a private link opens (holding
 * the link is the right to act on that one application): the API withdraws it, tells staff, and
 * when it was approved tells the animal's waiting list. Back to the same page: `?withdrawn=1` says
 * it is done; one that was decided or withdrawn meanwhile shows where it stands;
 * `?withdraw=failed` when the API could not be reached.
 */
export const withdrawMyApplication = async (data: FormData): Promise<void> => {
  const token = text(data, 'token');
  if (!ORDER_LINK_TOKEN_PATTERN.test(token)) {
    redirect('/applications/status');
  }
  const withdrawn = await withdrawApplication(token);
  if (withdrawn.ok) {
    redirect(`${orderStatusPagePath(token)}?withdrawn=1`);
  }
  const isAnswered = withdrawn.failure.kind === 'refused' || withdrawn.failure.kind === 'invalid';
  redirect(
    isAnswered ? orderStatusPagePath(token) : `${orderStatusPagePath(token)}?withdraw=failed`,
  );
};
