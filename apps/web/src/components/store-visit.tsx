import { Clock3, MapPin } from 'lucide-react';
import { connection } from 'next/server';
import { storeConfig } from '@/env';

/**
 * Where and when to visit the store, from configuration (STORE_ADDRESS, STORE_OPENING_HOURS).
 * Read per request, so a deployment's own values show without rebuilding the site.
 */
export const StoreVisit = async ({ heading }: { heading?: string }) => {
  await connection();
  const { address, openingHours } = storeConfig();
  return (
    // One per page, so a fixed id names the region.
    <section
      className="visit"
      aria-label={heading ? undefined : 'Visit the store'}
      aria-labelledby={heading ? 'visit-title' : undefined}
    >
      {heading ? (
        <h2 id="visit-title" className="visit__title">
          {heading}
        </h2>
      ) : null}
      <dl className="visit__facts">
        <div className="visit__row">
          <dt>
            <MapPin aria-hidden="true" focusable="false" className="visit__icon" />
            Address
          </dt>
          <dd>{address}</dd>
        </div>
        <div className="visit__row">
          <dt>
            <Clock3 aria-hidden="true" focusable="false" className="visit__icon" />
            Opening hours
          </dt>
          <dd>{openingHours}</dd>
        </div>
      </dl>
    </section>
  );
};

/** One line for the footer: the address and the opening hours. */
export const StoreFooterLine = async () => {
  await connection();
  const { address, openingHours } = storeConfig();
  return (
    <>
      Visit us at {address}. Opening hours: {openingHours}.
    </>
  );
};
