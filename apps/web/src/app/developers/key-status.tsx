import type { TOrgKey } from '@pets/contract/site';
import { Ban, CircleCheck, Clock3, RefreshCw } from 'lucide-react';
import { StoreTime } from '@/components/store-time';
import { keyStatusOf } from '@/lib/org-keys';

/** A key's status in words, with an icon; colour is only a second cue. */
export const KeyStatus = ({ apiKey, nowMs }: { apiKey: TOrgKey; nowMs: number }) => {
  const status = keyStatusOf(apiKey, nowMs);
  switch (status.kind) {
    case 'revoked':
      return (
        <span className="badge badge--sold">
          <Ban aria-hidden="true" focusable="false" className="badge__icon" />
          Revoked
        </span>
      );
    case 'expired':
      return (
        <span className="badge badge--sold">
          <Clock3 aria-hidden="true" focusable="false" className="badge__icon" />
          Expired
        </span>
      );
    case 'rolled':
      return (
        <span className="badge badge--pending">
          <RefreshCw aria-hidden="true" focusable="false" className="badge__icon" />
          Rolled: old secret valid until <StoreTime at={status.until} />
        </span>
      );
    case 'expiring':
      return (
        <span className="badge badge--pending">
          <Clock3 aria-hidden="true" focusable="false" className="badge__icon" />
          Expiring <StoreTime at={status.at} />
        </span>
      );
    default:
      return (
        <span className="badge badge--available">
          <CircleCheck aria-hidden="true" focusable="false" className="badge__icon" />
          Active
        </span>
      );
  }
};
