import { addressLines, mailtoHref, mapSearchUrl, telHref } from '@pets/contract/store';
import { Clock3, type LucideIcon, Mail, MapPin, Phone } from 'lucide-react';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { storeConfig } from '@/env';

/** One fact of the visit: its icon and name, then the value. */
const Row = ({
  icon: Icon,
  label,
  children,
}: {
  icon: LucideIcon;
  label: string;
  children: ReactNode;
}) => (
  <div className="visit__row">
    <dt>
      <Icon aria-hidden="true" focusable="false" className="visit__icon" />
      {label}
    </dt>
    <dd>{children}</dd>
  </div>
);

/**
 * Where and when to visit the store and how to reach it, from configuration (STORE_ADDRESS,
 * STORE_OPENING_HOURS, STORE_PHONE, STORE_EMAIL). Read per request, so a deployment's own values
 * show without rebuilding the site.
 */
export const StoreVisit = async ({ heading }: { heading?: string }) => {
  await connection();
  const { address, openingHours, phone, email } = storeConfig();
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
        <Row icon={MapPin} label="Address">
          <span className="visit__address">
            {addressLines(address).map((part, index, parts) => (
              // The parts of one address, in order; a part may repeat ("Millbrook, Millbrook").
              // biome-ignore lint/suspicious/noArrayIndexKey: the order is the identity here.
              <span key={index} className="visit__address-line">
                {part}
                {/* The comma stays for copying and screen readers; CSS breaks the line. */}
                {index < parts.length - 1 ? <span className="visually-hidden">, </span> : null}
              </span>
            ))}
          </span>
          <a href={mapSearchUrl(address)} className="visit__map" rel="noopener noreferrer">
            See it on a map
            <span className="visually-hidden"> (OpenStreetMap, another site)</span>
          </a>
        </Row>
        <Row icon={Clock3} label="Opening hours">
          {openingHours}
        </Row>
        <Row icon={Phone} label="Phone">
          <a href={telHref(phone)}>{phone}</a>
        </Row>
        <Row icon={Mail} label="Email">
          <a href={mailtoHref(email)}>{email}</a>
        </Row>
      </dl>
    </section>
  );
};

/**
 * The footer's store block: the name, where and when to visit (the address links to a map), how to
 * call or write, and how adopting works.
 */
export const StoreFooter = async () => {
  await connection();
  const { name, address, openingHours, phone, email } = storeConfig();
  return (
    <>
      <p>
        {name} · Every animal here is waiting to meet you. Visit us at{' '}
        <a href={mapSearchUrl(address)} rel="noopener noreferrer">
          {address}
          <span className="visually-hidden"> (map on OpenStreetMap)</span>
        </a>
        . Opening hours: {openingHours}.
      </p>
      <p className="site-footer__contact">
        <span>
          Call <a href={telHref(phone)}>{phone}</a>
        </span>
        <span>
          Write to <a href={mailtoHref(email)}>{email}</a>
        </span>
        <Link href="/how-adoption-works">How adoption works</Link>
      </p>
    </>
  );
};
