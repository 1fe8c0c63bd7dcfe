import { type AppRouteMutation, type ContractNoBodyType, initContract } from '@ts-rest/core';
import { Header } from '../headers';
import { BODY_LIMIT_TEXT } from '../rules/body-limit';
import {
  ORDER_CONFIRMATION,
  ORDER_CONFIRMATION_HOURS,
  ORDER_DECLINE_NOTE_MAX_LENGTH,
  ORDER_NOTES_MAX,
  ORDER_TRANSITIONS,
  type TOrderAction,
  ZAdopterQuestion,
  ZDeclineOrder,
  ZListOrdersQuery,
  ZNewOrder,
  ZNewOrderNote,
  ZOrder,
  ZOrderIdParams,
  ZOrderNote,
  ZOrderNotes,
  ZOrders,
} from '../schemas/order';
import {
  ORDER_LINK_DAYS,
  ORDER_LINK_EMAILS_PER_HOUR,
  ORDER_LINKS_PER_EMAIL,
  ZOrderLinkLookup,
  ZOrderLinksAccepted,
  ZOrderLinksRequest,
} from '../schemas/order-link';
import { notModified } from './conditional';
import { errors } from './errors';
import { idempotent } from './idempotent';
import type { TRouteMetadata } from './metadata';

const c = initContract();
/** The transitions take no body. Typed once: a literal in an object would widen to `symbol`. */
const NO_BODY: ContractNoBodyType = c.noBody();

/** Every POST takes `Idempotency-Key` (idempotent()), whose retries may also get this 409. */
const KEY_IN_USE =
  ' Or another request with the same `Idempotency-Key` is still in progress ' +
  '(`idempotency_key_in_use`): retry after a moment.';
const CONFLICT_TRANSITION =
  'The order is not in a status this transition starts from (`order_transition_not_allowed`); ' +
  `nothing changed.${KEY_IN_USE}`;
const FORBIDDEN_WRITE = 'The key is read-only (`forbidden`).';
const FORBIDDEN_STAFF = 'The key is not a staff key, or is read-only (`forbidden`).';

/**
 * One transition of an order: `POST /store/orders/:orderId/<action>`, with no body unless one is
 * given (decline's reason).
 */
const transition = <A extends TOrderAction, B extends AppRouteMutation['body'] = typeof NO_BODY>(
  action: A,
  summary: string,
  description: string,
  requiredRole?: 'staff',
  body: B = NO_BODY as B,
  bodyText = 'No request body.',
  conflict = CONFLICT_TRANSITION,
) =>
  idempotent({
    method: 'POST' as const,
    path: `/store/orders/:orderId/${action}` as `/store/orders/:orderId/${A}`,
    summary,
    description:
      `${description} Allowed from ${ORDER_TRANSITIONS[action].from.map((status) => `\`${status}\``).join(' or ')}; ` +
      `any other status is \`409 order_transition_not_allowed\` and changes nothing. ${bodyText} ` +
      'Answers the updated order, whose `history` records the change and the key that made it; ' +
      'orders changed with it record it too.',
    pathParams: ZOrderIdParams,
    body,
    responses: {
      200: ZOrder,
      // No body is read, but one sent is still checked: too large, or not JSON.
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      ...(requiredRole ? { requiredRole } : {}),
      responseDescriptions: {
        403: requiredRole ? FORBIDDEN_STAFF : FORBIDDEN_WRITE,
        404: requiredRole
          ? 'No order has this id (`not_found`).'
          : 'No order with this id is visible to the key: it does not exist or another key placed it (`not_found`).',
        409: conflict,
      },
    } satisfies TRouteMetadata,
  });

export const ordersRouter = c.router({
  listOrders: {
    method: 'GET',
    path: '/store/orders',
    summary: 'List adoption orders',
    description:
      'Adoption orders, newest first, at most `limit` of them: those placed with the calling key ' +
      '(a new key has none), or every order for a staff key. Filter with `status` and `petId`, ' +
      "and find orders by the adopter's name, email address or the application's reference " +
      'with `q`; ' +
      'further pages as for `GET /v1/pets`. For an incremental sync, `updatedSince` and ' +
      '`sort=updatedAt` (the order changed longest ago first) walk what changed since a moment.',
    query: ZListOrdersQuery,
    responses: {
      ...notModified,
      200: ZOrders,
      ...errors(400),
    },
    metadata: { responseHeaders: { 200: [Header.link] } } satisfies TRouteMetadata,
  },
  placeOrder: idempotent({
    method: 'POST',
    path: '/store/orders',
    summary: 'Place an adoption order',
    description:
      'Applies to adopt an `available` animal: the order is created `placed` (in review); the ' +
      'animal does not change (it counts one more in `applicationsInReview`), and any number of ' +
      'adopters may apply. At most one open (`placed`, `waitlisted` or `approved`) application ' +
      'per adopter email (compared trimmed and case-insensitively) and animal: another is ' +
      '`409 order_already_open`. An animal that is `pending` or `sold` is `409 pet_not_available`; ' +
      'an unknown `petId` is `404 not_found`. The body must be `application/json`, at most ' +
      `${BODY_LIMIT_TEXT}.`,
    body: ZNewOrder,
    responses: {
      201: ZOrder,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      responseHeaders: { 201: [Header.location] },
      responseDescriptions: {
        403: FORBIDDEN_WRITE,
        404: 'No animal has this `petId` (`not_found`).',
        409:
          'The animal is not `available`: it is `pending` (on hold for an approved adopter, or set ' +
          'aside by the store) or `sold` (`pet_not_available`). Or this adopter email already has ' +
          `an open application for the animal (\`order_already_open\`).${KEY_IN_USE}`,
      },
    } satisfies TRouteMetadata,
  }),
  getOrder: {
    method: 'GET',
    path: '/store/orders/:orderId',
    summary: 'Get an adoption order',
    description:
      'One order with its history. A partner key sees the orders it placed; a staff key sees ' +
      "every order. Another key's order is `404`, as if it did not exist.",
    pathParams: ZOrderIdParams,
    responses: {
      ...notModified,
      200: ZOrder,
      ...errors(400, 404),
    },
    metadata: {
      responseDescriptions: {
        404: 'No order with this id is visible to the key: it does not exist or another key placed it (`not_found`).',
      },
    } satisfies TRouteMetadata,
  },
  approveOrder: transition(
    'approve',
    'Approve an adoption order (staff)',
    'The store chooses this adopter: the order is `approved`, the animal becomes `pending` (on ' +
      'hold for them), and every other `placed` order for the animal becomes `waitlisted`. Only ' +
      'while the animal is `available` (else `409 pet_not_available`). Staff keys only.',
    'staff',
    NO_BODY as typeof NO_BODY,
    undefined,
    `${CONFLICT_TRANSITION.replace(KEY_IN_USE, '')} Or the animal is not \`available\` (another adopter's approval holds it, or it is \`sold\`; \`pet_not_available\`).${KEY_IN_USE}`,
  ),
  completeOrder: transition(
    'complete',
    'Complete an adoption order (staff)',
    'The animal has gone home: the order is `completed`, the animal `sold`, and every other ' +
      'open order for it `declined` (reason `adopted_by_another_family`). Staff keys only.',
    'staff',
  ),
  declineOrder: transition(
    'decline',
    'Decline an adoption order (staff)',
    'The store says no to this adopter, with a `reason` from a short list and an optional ' +
      `\`note\` (at most ${ORDER_DECLINE_NOTE_MAX_LENGTH} characters) that the adopter is shown. ` +
      'When the order was `approved`, the animal becomes `available` again; `waitlisted` orders ' +
      'stay in line. Staff keys only.',
    'staff',
    ZDeclineOrder,
    `The body: \`{ "reason": ..., "note": ... }\`, \`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
  ),
  listOrderNotes: {
    method: 'GET',
    path: '/store/orders/:orderId/notes',
    summary: "List an application's staff notes (staff)",
    description:
      "The store's private notes on an application, oldest first, each with its author (the " +
      "staff key's name) and time. Never shown to the adopter or to partners. Staff keys only.",
    pathParams: ZOrderIdParams,
    responses: {
      ...notModified,
      200: ZOrderNotes,
      ...errors(400, 403, 404),
    },
    metadata: {
      requiredRole: 'staff',
      responseDescriptions: {
        403: 'The key is not a staff key (`forbidden`).',
        404: 'No order has this id (`not_found`).',
      },
    } satisfies TRouteMetadata,
  },
  addOrderNote: idempotent({
    method: 'POST',
    path: '/store/orders/:orderId/notes',
    summary: 'Add a staff note to an application (staff)',
    description:
      "Adds a private note to an application, signed with the calling staff key's name. At most " +
      `${ORDER_NOTES_MAX} notes per application. The body must be \`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    pathParams: ZOrderIdParams,
    body: ZNewOrderNote,
    responses: {
      201: ZOrderNote,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      requiredRole: 'staff',
      responseDescriptions: {
        403: FORBIDDEN_STAFF,
        404: 'No order has this id (`not_found`).',
        409: `The application has ${ORDER_NOTES_MAX} notes already (\`order_notes_full\`).${KEY_IN_USE}`,
      },
    } satisfies TRouteMetadata,
  }),
  askAdopter: idempotent({
    method: 'POST',
    path: '/store/orders/:orderId/questions',
    summary: 'Email the adopter a question (staff)',
    description:
      "Emails the application's adopter the question, in the store's name, with the private " +
      'link to their application; the adopter answers by replying to the store. The question is ' +
      'kept with the notes (`kind: "question"`, signed with the calling staff key\'s name) and ' +
      'counts towards their limit. Staff keys only. The body must be `application/json`, at most ' +
      `${BODY_LIMIT_TEXT}.`,
    pathParams: ZOrderIdParams,
    body: ZAdopterQuestion,
    responses: {
      201: ZOrderNote,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      requiredRole: 'staff',
      responseDescriptions: {
        403: FORBIDDEN_STAFF,
        404: 'No order has this id (`not_found`).',
        409: `The application has ${ORDER_NOTES_MAX} notes already (\`order_notes_full\`).${KEY_IN_USE}`,
      },
    } satisfies TRouteMetadata,
  }),
  getOrderByLink: idempotent({
    method: 'POST',
    path: '/store/order-links/lookup',
    summary: 'Get an adoption order by its private link',
    description:
      'The order a private link names: the link in every email to the adopter ' +
      `(\`{site}/applications/status/{token}\`), which works for ${ORDER_LINK_DAYS} days after ` +
      'the email was written. Holding the token is what lets the caller read the order, ' +
      'whichever key placed it, as with an emailed receipt link. A POST with the token in the ' +
      'body, as OAuth token introspection (RFC 7662) does: a token in a path would be written to ' +
      'access logs. Changes nothing. A token that was not signed by this API, has expired, or ' +
      'names an order that no longer exists is `404`: one answer for all three. The body must be ' +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    body: ZOrderLinkLookup,
    responses: {
      200: ZOrder,
      ...errors(400, 403, 404, 413, 415),
    },
    metadata: {
      responseDescriptions: {
        403: FORBIDDEN_WRITE,
        404: 'The link is not valid or has expired (`not_found`); `sendOrderLinks` sends fresh ones.',
      },
    } satisfies TRouteMetadata,
  }),
  confirmOrderByLink: idempotent({
    method: 'POST',
    path: '/store/order-links/confirm',
    summary: 'Confirm an adoption order by its private link',
    description:
      'Where the store asks adopters to confirm by email, an order starts `unconfirmed` and counts ' +
      'only once its adopter confirms it from the private link of the first email (the site does ' +
      'it with a button on the status page, never on the link being opened: mail scanners open ' +
      `links). Confirmed, it is \`${ORDER_CONFIRMATION.to}\`, or \`${ORDER_CONFIRMATION.toWhenOnHold}\` ` +
      'when the animal is already on hold for an approved adopter; its `placedAt` becomes the ' +
      'moment of the confirmation, and the adopter and the store hear of it as of any new ' +
      `application. An order left \`unconfirmed\` for ${ORDER_CONFIRMATION_HOURS} hours is ` +
      'cancelled by the store. The token is the same as for `getOrderByLink`; the same `404` for a ' +
      'link that is not valid. An order that is not `unconfirmed` (already confirmed, or ' +
      'cancelled) is `409 order_transition_not_allowed` and changes nothing. The body must be ' +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    body: ZOrderLinkLookup,
    responses: {
      200: ZOrder,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      responseDescriptions: {
        403: FORBIDDEN_WRITE,
        404: 'The link is not valid or has expired (`not_found`); `sendOrderLinks` sends fresh ones.',
        409: `The order is not \`unconfirmed\` (\`order_transition_not_allowed\`); nothing changed.${KEY_IN_USE}`,
      },
    } satisfies TRouteMetadata,
  }),
  sendOrderLinks: idempotent({
    method: 'POST',
    path: '/store/order-links',
    summary: 'Email an adopter the links to their applications',
    description:
      'Writes one email to `email` listing its applications (newest first, at most ' +
      `${ORDER_LINKS_PER_EMAIL}), each with a private link to its status page. The answer is the ` +
      'same whether or not the address has applications (then nothing is sent), so it tells ' +
      `the caller nothing about who applied. At most ${ORDER_LINK_EMAILS_PER_HOUR} such emails ` +
      'go to one address an hour: further requests are accepted and dropped. The body must be ' +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    body: ZOrderLinksRequest,
    responses: {
      202: ZOrderLinksAccepted,
      ...errors(400, 403, 413, 415),
    },
    metadata: {
      responseDescriptions: { 403: FORBIDDEN_WRITE },
    } satisfies TRouteMetadata,
  }),
  cancelOrder: transition(
    'cancel',
    'Cancel an adoption order',
    'Withdraws an open order. When it was `approved`, the animal becomes `available` again; ' +
      '`waitlisted` orders stay in line. The key that placed the order or a staff key.',
  ),
});
