import { storeTime } from '@/lib/store-time';

/** An instant on the store's clock, machine-readable too: `<time dateTime="2026-...Z">`. */
export const StoreTime = ({ at, className }: { at: string; className?: string }) => (
  <time dateTime={at} className={className}>
    {storeTime(at)}
  </time>
);
