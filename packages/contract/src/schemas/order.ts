import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { listCursor } from '../rules/cursor';
import { formatOrderReference, parseOrderReference } from '../rules/order-reference';
import { PHONE_MIN_LENGTH, PHONE_PATTERN, PHONE_PATTERN_MESSAGE } from '../rules/phone';
import {
  ADOPTER_EMAIL_MAX_LENGTH,
  ADOPTER_NAME_MAX_LENGTH,
  ADOPTER_PHONE_MAX_LENGTH,
  nameSearchWords,
  ORDER_HOUSEHOLD_MAX_LENGTH,
  ORDER_MESSAGE_MAX_LENGTH,
  ORDER_OTHER_ANIMALS_MAX_LENGTH,
  ORDER_SEARCH_MAX_LENGTH,
} from '../rules/values';
import { KEY_START_MAX_LENGTH } from './api-key';
import {
  idField,
  idFromText,
  instant,
  instantFilter,
  nonBlankText,
  PAGE_SIZE,
  ZCursorQuery,
  ZEmailAddress,
  ZLimitQuery,
  ZUpdatedSinceQuery,
} from './common';
import type { TPetStatus } from './pet';

/** How long an `unconfirmed` application waits for its adopter before it is cancelled. */
export const ORDER_CONFIRMATION_HOURS = 24;

export const ZOrderStatus = extendApi(
  z.enum(['unconfirmed', 'placed', 'waitlisted', 'approved', 'declined', 'completed', 'cancelled']),
  {
    description:
      'Progress of an adoption application: `unconfirmed` (only where the store asks adopters to ' +
      'confirm by email: waiting for the adopter to open the link in the first email, for ' +
      `${ORDER_CONFIRMATION_HOURS} hours at most), ` +
      '`placed` (received, in review), `waitlisted` (in line ' +
      'behind an approved adopter, or kept in line after that approval fell through), `approved` ' +
      '(the animal is on hold for this adopter), then `declined`, `completed` (the animal has gone ' +
      'home) or `cancelled`. `unconfirmed`, `placed`, `waitlisted` and `approved` are open: an ' +
      'animal takes any number of open applications, at most one of them `approved`.',
  },
);
export type TOrderStatus = z.infer<typeof ZOrderStatus>;
export const OrderStatus = ZOrderStatus.enum;

/** The statuses of an open application: at most one per adopter email and animal. */
export const OPEN_ORDER_STATUSES = [
  'unconfirmed',
  'placed',
  'waitlisted',
  'approved',
] as const satisfies TOrderStatus[];

/** The open statuses still waiting for the store's choice: the Pet's `applicationsInReview`. */
export const IN_REVIEW_ORDER_STATUSES = ['placed', 'waitlisted'] as const satisfies TOrderStatus[];

/**
 * The transitions of an order, each a `POST /v1/store/orders/{orderId}/<action>`: the one state
 * machine that the API enforces, the docs draw (docs/api.md, checked by a test) and the site
 * offers its buttons from.
 */
export const ORDER_TRANSITIONS = {
  approve: { from: ['placed', 'waitlisted'], to: 'approved' },
  decline: { from: ['placed', 'waitlisted', 'approved'], to: 'declined' },
  complete: { from: ['approved'], to: 'completed' },
  cancel: { from: ['unconfirmed', 'placed', 'waitlisted', 'approved'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly TOrderStatus[]; to: TOrderStatus }>;
export type TOrderAction = keyof typeof ORDER_TRANSITIONS;

/**
 * Where the store asks adopters to confirm by email (the API's APPLICATION_CONFIRMATION), an
 * application starts `unconfirmed` and counts only once its adopter opens the private link of
 * the first email and confirms (`confirmOrderByLink`): then it is `placed`, or `waitlisted` when
 * the animal is already on hold for an approved adopter. Left unconfirmed for
 * ORDER_CONFIRMATION_HOURS, the store's schedule cancels it. Neither is a staff action, so
 * neither is one of ORDER_TRANSITIONS; the docs' diagram draws both (checked by a test).
 */
export const ORDER_CONFIRMATION = {
  from: 'unconfirmed',
  to: 'placed',
  toWhenOnHold: 'waitlisted',
  expiresTo: 'cancelled',
} as const satisfies Record<string, TOrderStatus>;

/** The `by` of a history entry the store's own schedule wrote (an unconfirmed application expiring). */
export const ORDER_HISTORY_BY_SCHEDULE = 'schedule';

/**
 * An adopter withdrawing their own application, from the private link of its emails (the site's
 * "Withdraw my application"): not a status of its own but `cancel`'s transition, from any open
 * status, made by the adopter, so its history entry is `by` ORDER_HISTORY_BY_ADOPTER. What a
 * cancellation does follows (an approved one frees the animal, and its waiting list is told), and
 * partners read a `cancelled` order as they always have (docs/decisions.md, "An adopter withdraws
 * an application").
 */
export const ORDER_HISTORY_BY_ADOPTER = 'adopter';
export const ORDER_WITHDRAWAL = { action: 'cancel', by: ORDER_HISTORY_BY_ADOPTER } as const;

/** Whether a history entry is its adopter's withdrawal. */
export const isWithdrawal = (entry: Pick<TOrderHistoryEntry, 'to' | 'by'>): boolean =>
  entry.to === ORDER_TRANSITIONS[ORDER_WITHDRAWAL.action].to && entry.by === ORDER_WITHDRAWAL.by;

/** Whether an order ended because its adopter withdrew it. */
export const isWithdrawn = (order: Pick<TOrder, 'status' | 'history'>): boolean => {
  const last = order.history[order.history.length - 1];
  return last !== undefined && last.to === order.status && isWithdrawal(last);
};

/** Why the store declined an application: a short list an adopter can be told kindly. */
export const ZDeclineReason = extendApi(
  z.enum([
    'not_a_match',
    'home_not_suitable',
    'incomplete_application',
    'no_response',
    'adopted_by_another_family',
    'other',
  ]),
  {
    description:
      'Why the store declined the application. `adopted_by_another_family` is also set by ' +
      '`completeOrder` on every other open application for the animal.',
  },
);
export type TDeclineReason = z.infer<typeof ZDeclineReason>;
export const DeclineReason = ZDeclineReason.enum;

/**
 * What a transition does besides changing its own order, in the same transaction:
 * - `pet`: the animal's status afterwards;
 * - `petIfWasApproved`: the animal's status afterwards, only when the order was `approved` (the
 *   hold ends);
 * - `others`: the animal's other orders in a `from` status move to `to` (arrival order is id
 *   order), with `reason` when they are declined.
 * `approve` also needs the animal `available` (else `409 pet_not_available`).
 */
/** What one transition does besides changing its own order (ORDER_SIDE_EFFECTS). */
export type TOrderSideEffects = {
  pet?: TPetStatus;
  petIfWasApproved?: TPetStatus;
  others?: { from: readonly TOrderStatus[]; to: TOrderStatus; reason?: TDeclineReason };
};

export const ORDER_SIDE_EFFECTS = {
  approve: { pet: 'pending', others: { from: ['placed'], to: 'waitlisted' } },
  decline: { petIfWasApproved: 'available' },
  cancel: { petIfWasApproved: 'available' },
  complete: {
    pet: 'sold',
    others: {
      from: ['unconfirmed', 'placed', 'waitlisted'],
      to: 'declined',
      reason: 'adopted_by_another_family',
    },
  },
} as const satisfies Record<TOrderAction, TOrderSideEffects>;

/** The actions an order in `status` allows, in the contract's order. */
export const orderActionsFrom = (status: TOrderStatus): TOrderAction[] =>
  (Object.keys(ORDER_TRANSITIONS) as TOrderAction[]).filter((action) =>
    (ORDER_TRANSITIONS[action].from as readonly TOrderStatus[]).includes(status),
  );

/**
 * Every order has at most this many history entries: unconfirmed, placed, waitlisted, approved,
 * then declined, completed or cancelled.
 */
export const ORDER_HISTORY_MAX = 5;
export const ORDER_DECLINE_NOTE_MAX_LENGTH = 1000;
export {
  ADOPTER_EMAIL_MAX_LENGTH,
  ADOPTER_NAME_MAX_LENGTH,
  ADOPTER_PHONE_MAX_LENGTH,
  ORDER_HOUSEHOLD_MAX_LENGTH,
  ORDER_MESSAGE_MAX_LENGTH,
  ORDER_OTHER_ANIMALS_MAX_LENGTH,
  ORDER_SEARCH_MAX_LENGTH,
};

export const ZAdopter = extendApi(
  z
    .object({
      name: nonBlankText(
        z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }),
        'must not be empty',
      )
        .max(ADOPTER_NAME_MAX_LENGTH, `must be at most ${ADOPTER_NAME_MAX_LENGTH} characters`)
        .describe('Full name of the person adopting.'),
      email: ZEmailAddress.describe('Email address of the person adopting.'),
      phone: extendApi(
        z
          .string({ invalid_type_error: 'must be a string' })
          .trim()
          .min(PHONE_MIN_LENGTH, `must be at least ${PHONE_MIN_LENGTH} characters`)
          .max(ADOPTER_PHONE_MAX_LENGTH, `must be at most ${ADOPTER_PHONE_MAX_LENGTH} characters`)
          .regex(PHONE_PATTERN, PHONE_PATTERN_MESSAGE)
          .optional(),
        {
          description: 'Phone number of the person adopting (optional).',
          example: '+44 20 7946 0958',
        },
      ),
    })
    .strict(),
  { title: 'Adopter', example: { name: 'Ada Lovelace', email: 'ada@example.org' } },
);
export type TAdopter = z.infer<typeof ZAdopter>;

const ZOrderMessage = z
  .string({ invalid_type_error: 'must be a string' })
  .trim()
  .max(ORDER_MESSAGE_MAX_LENGTH, `must be at most ${ORDER_MESSAGE_MAX_LENGTH} characters`)
  .describe('A note for the store (optional).');

/** A short answer of the application form: trimmed, at most `max` characters. */
const applicationAnswer = (max: number, description: string) =>
  z
    .string({ invalid_type_error: 'must be a string' })
    .trim()
    .max(max, `must be at most ${max} characters`)
    .describe(description);

const HOUSEHOLD_DESCRIPTION =
  'Who lives with the adopter, and their home, in their words (optional), e.g. ' +
  '`Two adults and a 7-year-old; a house with a garden`. An addition to the spec.';
const OTHER_ANIMALS_DESCRIPTION =
  'The animals already at home, in their words (optional), e.g. `A 10-year-old cat`, or ' +
  '`None`. An addition to the spec.';

export const ZOrderHistoryEntry = extendApi(
  z.object({
    at: instant('When the change happened (RFC 3339, UTC).'),
    // Absent rather than null for the placement: OpenAPI 3.0 validators disagree on a nullable enum.
    from: extendApi(ZOrderStatus.optional(), {
      description: 'The status the order left; absent on the first entry, its placement.',
    }),
    to: ZOrderStatus,
    by: z
      .string()
      .max(KEY_START_MAX_LENGTH)
      .describe(
        'Display start of the API key that made the change, e.g. `pets_live_3xK9`; `schedule` ' +
          "for a change the store's own schedule made (an unconfirmed application expiring); " +
          '`adopter` for an application its adopter withdrew from the private link of its emails ' +
          '(the order is then `cancelled`).',
      ),
    byName: z
      .string()
      .max(100)
      .optional()
      .describe(
        "The person who made the change through the store's own site, e.g. `Anna Ortiz`. Given to staff keys only.",
      ),
  }),
  {
    title: 'OrderHistoryEntry',
    example: { at: '2026-11-23T10:15:00.000Z', to: 'placed', by: 'pets_live_3xK9' },
  },
);
export type TOrderHistoryEntry = z.infer<typeof ZOrderHistoryEntry>;

/**
 * Whether a history entry is a step only the adopter takes: applying (the first entry, whichever
 * key carried it), confirming from their email (ORDER_CONFIRMATION) and withdrawing from its
 * private link (ORDER_WITHDRAWAL). The store's steps name the person who took them (`byName`) or
 * the key; the schedule's say so (`by: schedule`).
 */
export const isAdopterStep = (entry: Pick<TOrderHistoryEntry, 'from' | 'to' | 'by'>): boolean =>
  entry.from === undefined ||
  isWithdrawal(entry) ||
  (entry.from === ORDER_CONFIRMATION.from &&
    (entry.to === ORDER_CONFIRMATION.to || entry.to === ORDER_CONFIRMATION.toWhenOnHold));

export const ZOrder = extendApi(
  z.object({
    id: idField('Unique identifier of the order.'),
    petId: idField('The animal this adoption order is for.'),
    status: ZOrderStatus,
    placedAt: instant('When the order was placed (RFC 3339, UTC).'),
    updatedAt: instant('When the order last changed (RFC 3339, UTC).'),
    adopter: ZAdopter,
    message: z
      .string()
      .max(ORDER_MESSAGE_MAX_LENGTH)
      .optional()
      .describe('The note for the store.'),
    household: z
      .string()
      .max(ORDER_HOUSEHOLD_MAX_LENGTH)
      .optional()
      .describe(HOUSEHOLD_DESCRIPTION),
    otherAnimals: z
      .string()
      .max(ORDER_OTHER_ANIMALS_MAX_LENGTH)
      .optional()
      .describe(OTHER_ANIMALS_DESCRIPTION),
    declineReason: extendApi(ZDeclineReason.optional(), {
      description: 'Why the store declined the application; present only when it is `declined`.',
    }),
    declineNote: z
      .string()
      .max(ORDER_DECLINE_NOTE_MAX_LENGTH)
      .optional()
      .describe(
        "The store's words to the adopter about the decline, if any; present only when it is `declined`.",
      ),
    history: z
      .array(ZOrderHistoryEntry)
      .min(1)
      .max(ORDER_HISTORY_MAX)
      .describe('Every change of the order, oldest first, starting with its placement.'),
  }),
  {
    title: 'Order',
    example: {
      id: 7,
      petId: 42,
      status: 'approved',
      placedAt: '2026-11-23T10:15:00.000Z',
      updatedAt: '2026-11-23T11:02:00.000Z',
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org' },
      message: 'We have a garden.',
      history: [
        { at: '2026-11-23T10:15:00.000Z', to: 'placed', by: 'pets_live_3xK9' },
        { at: '2026-11-23T11:02:00.000Z', from: 'placed', to: 'approved', by: 'pets_live_Q7mZ' },
      ],
    },
  },
);
export type TOrder = z.infer<typeof ZOrder>;

export const ZOrders = extendApi(z.array(ZOrder).max(PAGE_SIZE.max), { title: 'Orders' });
export type TOrders = z.infer<typeof ZOrders>;

export const ZNewOrder = extendApi(
  z
    .object({
      petId: idField('The animal to adopt: it must be `available`.', {
        required: 'is required',
        notInteger: 'must be an integer',
        notPositive: 'must be a positive integer',
        outOfRange: 'must be a safe integer',
      }),
      adopter: ZAdopter,
      message: ZOrderMessage.optional(),
      household: applicationAnswer(ORDER_HOUSEHOLD_MAX_LENGTH, HOUSEHOLD_DESCRIPTION).optional(),
      otherAnimals: applicationAnswer(
        ORDER_OTHER_ANIMALS_MAX_LENGTH,
        OTHER_ANIMALS_DESCRIPTION,
      ).optional(),
    })
    .strict(),
  {
    title: 'NewOrder',
    example: {
      petId: 42,
      adopter: { name: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0958' },
      message: 'We have a garden.',
      household: 'Two adults and a 7-year-old',
      otherAnimals: 'A 10-year-old cat',
    },
  },
);
export type TNewOrder = z.infer<typeof ZNewOrder>;

export const ZDeclineOrder = extendApi(
  z
    .object({
      reason: ZDeclineReason,
      note: z
        .string({ invalid_type_error: 'must be a string' })
        .trim()
        .max(
          ORDER_DECLINE_NOTE_MAX_LENGTH,
          `must be at most ${ORDER_DECLINE_NOTE_MAX_LENGTH} characters`,
        )
        .optional()
        .describe('Words for the adopter (optional, shown to them); empty is the same as none.'),
    })
    .strict(),
  {
    title: 'DeclineOrder',
    example: {
      reason: 'home_not_suitable',
      note: 'Biscuit needs a garden; we hope you find a friend soon.',
    },
  },
);
export type TDeclineOrder = z.infer<typeof ZDeclineOrder>;

export const ZOrderIdParams = z.object({
  orderId: extendApi(idFromText('orderId', 'ID of the order.'), { example: 7 }),
});
export type TOrderIdParams = z.infer<typeof ZOrderIdParams>;

const ZOrdersPetIdQuery = idFromText(
  'petId',
  'Only orders for this animal. Omit for orders of every animal.',
);

/** What a `q` of listOrders looks for (orderSearchOf). */
export type TOrderSearch =
  | { by: 'reference'; orderId: number }
  | { by: 'email'; email: string }
  | { by: 'name'; words: string[] };

/**
 * How listOrders reads its `q`, the staff's one search box: an application's reference (`A-12`,
 * `a12`, `#12`, `12`) is that order; text with an `@` is an adopter's whole email address, in any
 * case; anything else is words, each the start of a word of the adopter's name, in any order and
 * case. Undefined when there is nothing to look for.
 */
export const orderSearchOf = (text: string): TOrderSearch | undefined => {
  const orderId = parseOrderReference(text);
  if (orderId !== undefined) {
    return { by: 'reference', orderId };
  }
  const trimmed = text.trim().toLowerCase();
  if (trimmed.includes('@')) {
    return { by: 'email', email: trimmed };
  }
  const words = nameSearchWords(trimmed);
  return words.length > 0 ? { by: 'name', words } : undefined;
};

/** A search as one text that reads back as the same search: what the cursor carries. */
const searchText = (search: TOrderSearch): string => {
  switch (search.by) {
    case 'reference':
      return formatOrderReference(search.orderId);
    case 'email':
      return search.email;
    default:
      return search.words.join(' ');
  }
};

export const ZOrdersSearchQuery = extendApi(
  z
    .string({ invalid_type_error: 'q must be a text, sent once' })
    .min(1, 'q must not be empty')
    .max(ORDER_SEARCH_MAX_LENGTH, `q must be at most ${ORDER_SEARCH_MAX_LENGTH} characters`)
    .transform((text, context): string => {
      const search = orderSearchOf(text);
      if (!search) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'q must contain a letter or a digit',
        });
        return z.NEVER;
      }
      return searchText(search);
    }),
  {
    description:
      "Only the orders this text finds: an application's reference (`A-12`, also `a12`, `#12` " +
      "or `12`) finds that order; a text with an `@` the orders of that adopter's email address " +
      '(the whole address, in any case); anything else the orders whose adopter name has words ' +
      'starting with each word of the text, in any order and case (`ann` finds Ann Ortiz, ' +
      '`ort an` too). Combines with the other filters. At most ' +
      `${ORDER_SEARCH_MAX_LENGTH} characters. An addition to the spec; omit for every order.`,
  },
);

/** The filters of listOrders as its cursor carries them, in this order. */
export type TOrdersListFilters = {
  status?: TOrderStatus | undefined;
  petId?: number | undefined;
  /** Only orders changed at or after this instant (RFC 3339, as sent). */
  updatedSince?: string | undefined;
  /** The order of the list: absent, newest first by id; `updatedAt`, oldest change first. */
  sort?: TOrdersListSort | undefined;
  /** Never sent by a client: in a cursor of `sort=updatedAt`, the last order's `updatedAt`. */
  updatedAfter?: string | undefined;
  /** The search, as ZOrdersSearchQuery reads it (`A-12`, `ann@example.org`, `ann ort`). */
  q?: string | undefined;
};

const decodeComponent = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

export const ZOrdersListSort = extendApi(z.enum(['updatedAt']), {
  description:
    'The order of the list. Omitted: newest first (by id). `updatedAt`: the order changed ' +
    'longest ago first, ties by id, each change moving the order to the end (with ' +
    '`updatedSince`, the walk of a sync: docs/api.md, "Keeping in sync"). An addition to the spec.',
});
export type TOrdersListSort = z.infer<typeof ZOrdersListSort>;

/** The cursor of listOrders: where the next page starts, and the list's filters. */
export const ORDERS_CURSOR = listCursor<TOrdersListFilters>(
  {
    status: { write: (status) => status, read: (text) => ZOrderStatus.safeParse(text).data },
    petId: { write: String, read: (text) => ZOrdersPetIdQuery.safeParse(text).data },
    updatedSince: instantFilter,
    sort: { write: (sort) => sort, read: (text) => ZOrdersListSort.safeParse(text).data },
    updatedAfter: instantFilter,
    // Percent-encoded: an address may hold characters a cursor's slot cannot.
    q: {
      write: encodeURIComponent,
      read: (text) => {
        const decoded = decodeComponent(text);
        return decoded === undefined ? undefined : ZOrdersSearchQuery.safeParse(decoded).data;
      },
    },
    // Cursors issued before the sync filters carry status and petId only; before the search,
    // the five before it.
  },
  { earlierFilterCounts: [2, 5] },
);

export const ZListOrdersQuery = z.object({
  limit: ZLimitQuery,
  status: extendApi(ZOrderStatus.optional(), {
    description: 'Only orders whose status equals this value. Omit for all orders.',
  }),
  petId: ZOrdersPetIdQuery.optional(),
  updatedSince: ZUpdatedSinceQuery.optional(),
  sort: ZOrdersListSort.optional(),
  q: ZOrdersSearchQuery.optional(),
  cursor: ZCursorQuery,
});
export type TListOrdersQuery = z.infer<typeof ZListOrdersQuery>;

export const ORDER_NOTE_MAX_LENGTH = 2000;
/** At most this many notes per application: a conversation, not a log. */
export const ORDER_NOTES_MAX = 100;

export const ZOrderNoteKind = extendApi(z.enum(['note', 'question']), {
  description:
    '`note`: private to the store. `question`: a question the store emailed to the adopter ' +
    '(`askAdopter`), kept with the notes so staff see what was asked and when.',
});
export type TOrderNoteKind = z.infer<typeof ZOrderNoteKind>;

export const ZOrderNote = extendApi(
  z.object({
    id: idField('Unique identifier of the note.'),
    kind: ZOrderNoteKind,
    text: z.string().max(ORDER_NOTE_MAX_LENGTH).describe('What the staff member wrote.'),
    author: z
      .string()
      .max(100)
      .describe('The name of the staff key that wrote it (the name given to `pnpm keys create`).'),
    createdAt: instant('When it was written (RFC 3339, UTC).'),
  }),
  {
    title: 'OrderNote',
    example: {
      id: 3,
      kind: 'note',
      text: 'Called her: she works from home, has a fenced garden.',
      author: 'Front desk',
      createdAt: '2026-11-23T12:40:00.000Z',
    },
  },
);
export type TOrderNote = z.infer<typeof ZOrderNote>;

export const ZOrderNotes = extendApi(z.array(ZOrderNote).max(ORDER_NOTES_MAX), {
  title: 'OrderNotes',
});

/** The text of a note or of a question to the adopter: one rule, described for each. */
const noteText = (description: string) =>
  nonBlankText(
    z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }),
    'must not be empty',
  )
    .max(ORDER_NOTE_MAX_LENGTH, `must be at most ${ORDER_NOTE_MAX_LENGTH} characters`)
    .describe(description);

export const ZNewOrderNote = extendApi(
  z
    .object({
      text: noteText('The note: private to the store, never shown to the adopter or to partners.'),
    })
    .strict(),
  { title: 'NewOrderNote', example: { text: 'Called her: she works from home.' } },
);
export type TNewOrderNote = z.infer<typeof ZNewOrderNote>;

export const ZAdopterQuestion = extendApi(
  z.object({ text: noteText('The question, as the adopter reads it in the email.') }).strict(),
  {
    title: 'AdopterQuestion',
    example: { text: 'Could you tell us a little about the garden: is it fenced?' },
  },
);
export type TAdopterQuestion = z.infer<typeof ZAdopterQuestion>;
