import type { TPetStatus } from '@pets/contract/schemas';
import { CircleCheck, Clock3, Heart, type LucideIcon } from 'lucide-react';

type TStatusLook = { label: string; icon: LucideIcon };

/** How a status reads to a person: always a word and an icon; the colour is only a second cue. */
export const STATUS_LOOKS: Record<TPetStatus, TStatusLook> = {
  available: { label: 'Available', icon: CircleCheck },
  pending: { label: 'Pending adoption', icon: Clock3 },
  sold: { label: 'Adopted', icon: Heart },
};

export const StatusBadge = ({ status }: { status: TPetStatus }) => {
  const { label, icon: Icon } = STATUS_LOOKS[status];
  return (
    <span className={`badge badge--${status}`}>
      <Icon aria-hidden="true" focusable="false" className="badge__icon" strokeWidth={2.25} />
      {label}
    </span>
  );
};
