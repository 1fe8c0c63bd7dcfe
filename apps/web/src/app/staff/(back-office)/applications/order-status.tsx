import {
  isAdopterStep,
  isWithdrawal,
  ORDER_CONFIRMATION_HOURS,
  ORDER_HISTORY_BY_SCHEDULE,
  type TOrderHistoryEntry,
  type TOrderStatus,
} from '@pets/contract/schemas';
import {
  Ban,
  CircleCheck,
  CircleX,
  Heart,
  Hourglass,
  Inbox,
  type LucideIcon,
  Mail,
} from 'lucide-react';

type TLook = { label: string; icon: LucideIcon; tone: string };

/** An order's status as staff read it: a word and an icon, colour only as a second cue. */
export const ORDER_STATUS_LOOKS: Record<TOrderStatus, TLook> = {
  unconfirmed: { label: 'Unconfirmed', icon: Mail, tone: 'cancelled' },
  placed: { label: 'New', icon: Inbox, tone: 'pending' },
  waitlisted: { label: 'Waitlisted', icon: Hourglass, tone: 'pending' },
  approved: { label: 'Approved', icon: CircleCheck, tone: 'available' },
  declined: { label: 'Declined', icon: CircleX, tone: 'cancelled' },
  completed: { label: 'Adopted', icon: Heart, tone: 'sold' },
  cancelled: { label: 'Cancelled', icon: Ban, tone: 'cancelled' },
};

export const OrderStatusBadge = ({ status }: { status: TOrderStatus }) => {
  const { label, icon: Icon, tone } = ORDER_STATUS_LOOKS[status];
  return (
    <span className={`badge badge--${tone}`}>
      <Icon aria-hidden="true" focusable="false" className="badge__icon" strokeWidth={2.25} />
      {label}
    </span>
  );
};

const STEP_WORDS: Record<TOrderStatus, string> = {
  unconfirmed: 'Application sent; the adopter has not confirmed it by email yet',
  placed: 'Application received',
  waitlisted: 'Waitlisted (another application approved)',
  approved: 'Approved',
  declined: 'Declined',
  completed: 'Adoption completed',
  cancelled: 'Cancelled',
};

/** One step of the history in plain words. */
export const historyStep = (entry: TOrderHistoryEntry): string =>
  isWithdrawal(entry)
    ? 'Withdrawn'
    : entry.from !== undefined && isAdopterStep(entry)
      ? `Confirmed by the adopter: ${STEP_WORDS[entry.to].toLowerCase()}`
      : entry.by === ORDER_HISTORY_BY_SCHEDULE
        ? `${STEP_WORDS[entry.to]}: not confirmed within ${ORDER_CONFIRMATION_HOURS} hours`
        : STEP_WORDS[entry.to];

/**
 * Who made a step: the adopter (applying, confirming), by name; the store's person who did it,
 * by name ("by Anna Ortiz"); the store's own schedule; or, for a script's staff key (and steps
 * recorded before people signed in as themselves), the key's display start.
 */
export const historyBy = (entry: TOrderHistoryEntry, adopterName: string): string => {
  if (entry.by === ORDER_HISTORY_BY_SCHEDULE) {
    return "by the store's schedule";
  }
  if (isAdopterStep(entry)) {
    return `by ${adopterName}, the adopter`;
  }
  return entry.byName ? `by ${entry.byName}` : `by key ${entry.by}`;
};
