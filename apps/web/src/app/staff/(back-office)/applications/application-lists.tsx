import { formatOrderReference } from '@pets/contract/rules';
import type { TOrder } from '@pets/contract/schemas';
import Link from 'next/link';
import { StoreTime } from '@/components/store-time';
import { OrderStatusBadge } from './order-status';

const applicationHref = (order: TOrder) => `/staff/applications/${order.id}`;
export const animalApplicationsHref = (petId: number) => `/staff/applications?petId=${petId}`;

type TGroup = { petId: number; orders: TOrder[] };

/** The page's applications by animal, each animal where its newest application is. */
const byAnimal = (orders: readonly TOrder[]): TGroup[] => {
  const groups = new Map<number, TOrder[]>();
  for (const order of orders) {
    const group = groups.get(order.petId);
    if (group) {
      group.push(order);
    } else {
      groups.set(order.petId, [order]);
    }
  }
  return [...groups].map(([petId, grouped]) => ({ petId, orders: grouped }));
};

/**
 * The queue, like an inbox (newest first), with each animal's applications together under its
 * name and a way to compare them side by side: a shelter decides between the people who asked
 * for the same animal.
 */
export const ApplicationQueue = ({
  orders,
  petNames,
}: {
  orders: readonly TOrder[];
  petNames: ReadonlyMap<number, string>;
}) => (
  <div className="queue-groups">
    {byAnimal(orders).map(({ petId, orders: grouped }) => {
      const name = petNames.get(petId) ?? `Animal #${petId}`;
      const headingId = `animal-${petId}`;
      return (
        <section key={petId} className="queue-group" aria-labelledby={headingId}>
          <div className="queue-group__head">
            <h2 id={headingId} className="queue-group__title">
              {name}
            </h2>
            <Link href={animalApplicationsHref(petId)} className="queue-group__compare">
              Compare {name}&apos;s applications side by side
            </Link>
          </div>
          <ol className="queue" aria-label={`Applications for ${name}`}>
            {grouped.map((order) => (
              <li key={order.id} className="queue__item">
                <Link href={applicationHref(order)} className="queue__link">
                  <span className="queue__title">{order.adopter.name}</span>
                  <span className="queue__meta">
                    {formatOrderReference(order.id)} · <StoreTime at={order.placedAt} />
                  </span>
                </Link>
                <OrderStatusBadge status={order.status} />
              </li>
            ))}
          </ol>
        </section>
      );
    })}
  </div>
);

/** An answer of the application form, or what it means when the adopter left it out. */
const Answer = ({ value, none }: { value: string | undefined; none: string }) =>
  value ?? <span className="compare__none">{none}</span>;

/**
 * One animal's applications side by side, in the order they arrived: a card each, with what
 * staff weigh (who lives there, the animals already at home, their words, when they applied),
 * as many cards to a row as the screen holds at a readable width, one on a phone.
 */
export const ApplicationComparison = ({
  orders,
  petName,
}: {
  orders: readonly TOrder[];
  petName: string;
}) => (
  <ol className="compare" aria-label={`Applications for ${petName}`}>
    {orders.map((order) => (
      <li key={order.id} className="compare__card">
        <h2 className="compare__name">
          <Link href={applicationHref(order)}>{order.adopter.name}</Link>
        </h2>
        <p className="compare__status">
          <span className="compare__reference">{formatOrderReference(order.id)}</span>
          <OrderStatusBadge status={order.status} />
        </p>
        <dl className="compare__facts">
          <div>
            <dt>Arrived</dt>
            <dd>
              <StoreTime at={order.placedAt} />
            </dd>
          </div>
          <div>
            <dt>Household</dt>
            <dd>
              <Answer value={order.household} none="Not said" />
            </dd>
          </div>
          <div>
            <dt>Other animals</dt>
            <dd>
              <Answer value={order.otherAnimals} none="Not said" />
            </dd>
          </div>
          <div>
            <dt>Message</dt>
            <dd className="compare__message">
              <Answer value={order.message} none="No message" />
            </dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd className="compare__email">{order.adopter.email}</dd>
          </div>
          <div>
            <dt>Phone</dt>
            <dd>
              <Answer value={order.adopter.phone} none="Not given" />
            </dd>
          </div>
        </dl>
      </li>
    ))}
  </ol>
);
