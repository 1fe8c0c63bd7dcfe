import {
  type TOrder,
  type TOrderStatus,
  ZListOrdersQuery,
  ZOrderStatus,
} from '@pets/contract/schemas';
import { Inbox } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { PageIntro } from '@/components/page-intro';
import { Pagination } from '@/components/pagination';
import { StatePanel } from '@/components/state-panel';
import { StoreTime } from '@/components/store-time';
import { requireStaffKey, SESSION_EXPIRED_PATH } from '@/lib/session';
import {
  asPageFailure,
  listOrders,
  listPetsAsStaff,
  type TOrdersPage,
  type TStaffResult,
} from '@/lib/staff-api';
import { ORDER_STATUS_LOOKS, OrderStatusBadge } from './order-status';

export const metadata: Metadata = { title: 'Applications' };

const PAGE_SIZE = 20;
/** One animal's applications are shown on one page, oldest first: a shelter rarely gets more. */
/** One animal's applications are read whole, up to this many pages of the API's largest size. */
const ANIMAL_PAGE_SIZE = 100;
const ANIMAL_MAX_PAGES = 10;

/**
 * Every application for one animal (the newest ANIMAL_PAGE_SIZE × ANIMAL_MAX_PAGES at most), in
 * the order they arrived: the API lists newest first, so the pages are read to the end before
 * they are turned round. `isCut`: there were more than that.
 */
const animalApplications = async (
  apiKey: string,
  petId: number,
  status: TOrderStatus | undefined,
): Promise<TStaffResult<TOrdersPage & { isCut: boolean }>> => {
  const orders: TOrder[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < ANIMAL_MAX_PAGES; page += 1) {
    const read = await listOrders(apiKey, { status, petId, cursor, limit: ANIMAL_PAGE_SIZE });
    if (!read.ok) {
      return read;
    }
    orders.push(...read.data.orders);
    cursor = read.data.nextCursor;
    if (!cursor) {
      break;
    }
  }
  return {
    ok: true,
    data: { orders: orders.reverse(), isCut: cursor !== undefined },
  };
};

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const hrefFor = (
  status: TOrderStatus | undefined,
  petId: number | undefined,
  cursor?: string,
): string => {
  const query = new URLSearchParams();
  if (status) {
    query.set('status', status);
  }
  if (petId) {
    query.set('petId', String(petId));
  }
  if (cursor) {
    query.set('cursor', cursor);
  }
  const text = query.toString();
  return text ? `/staff/applications?${text}` : '/staff/applications';
};

/**
 * The queue: every application, newest first, like an inbox; filter by status and by animal. One
 * animal's applications are listed in arrival order (oldest first), as staff compare them.
 */
const ApplicationsPage = async ({ searchParams }: TProps) => {
  await connection();
  const { apiKey } = await requireStaffKey();
  const query = await searchParams;
  const parsedStatus = ZOrderStatus.safeParse(one(query.status));
  const status = parsedStatus.success ? parsedStatus.data : undefined;
  const cursor = one(query.cursor);
  const parsedPetId = ZListOrdersQuery.shape.petId.safeParse(one(query.petId));
  const petId = parsedPetId.success ? parsedPetId.data : undefined;

  const page = petId
    ? await animalApplications(apiKey, petId, status)
    : await listOrders(apiKey, { status, cursor, limit: PAGE_SIZE });
  if (!page.ok && page.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  const petIds = [
    ...new Set([
      ...(petId ? [petId] : []),
      ...(page.ok ? page.data.orders : []).map((order) => order.petId),
    ]),
  ];
  const pets =
    petIds.length > 0
      ? await listPetsAsStaff(apiKey, { id: petIds.join(','), limit: petIds.length })
      : undefined;
  const petNames = new Map(pets?.ok ? pets.data.pets.map((pet) => [pet.id, pet.name]) : []);
  const orders = page.ok ? page.data.orders : [];
  const isCut = page.ok && 'isCut' in page.data && page.data.isCut;
  const animalName = petId ? (petNames.get(petId) ?? `animal #${petId}`) : undefined;

  return (
    <>
      <PageIntro title={animalName ? `Applications for ${animalName}` : 'Applications'}>
        {animalName ? 'In the order they arrived.' : 'Newest first.'} Open one to approve, decline,
        complete or cancel it.
      </PageIntro>
      {petId ? (
        <p className="queue__filter">
          Showing one animal&apos;s applications
          {isCut ? `: the newest ${ANIMAL_PAGE_SIZE * ANIMAL_MAX_PAGES}` : ''}.
          <Link href={hrefFor(status, undefined)}>Show every animal&apos;s applications</Link>
        </p>
      ) : null}
      <form method="get" action="/staff/applications" className="filters" aria-label="Filter">
        <div className="filters__field">
          <label htmlFor="status-filter" className="filters__label">
            Status
          </label>
          <select id="status-filter" name="status" defaultValue={status ?? ''} className="select">
            <option value="">All applications</option>
            {ZOrderStatus.options.map((each) => (
              <option key={each} value={each}>
                {ORDER_STATUS_LOOKS[each].label}
              </option>
            ))}
          </select>
        </div>
        {petId ? <input type="hidden" name="petId" value={String(petId)} /> : null}
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {!page.ok ? (
        <ApiFailure failure={asPageFailure(page.failure)} retryHref={hrefFor(status, petId)} />
      ) : orders.length === 0 ? (
        <StatePanel
          icon={Inbox}
          title={
            status
              ? `No ${ORDER_STATUS_LOOKS[status].label.toLowerCase()} applications`
              : 'No applications yet'
          }
          role="status"
          actions={
            status || petId ? (
              <Link href="/staff/applications" className="button button--secondary">
                Show all applications
              </Link>
            ) : undefined
          }
        >
          <p>
            {status || petId
              ? 'Nothing matches this filter right now.'
              : 'New applications appear here.'}
          </p>
        </StatePanel>
      ) : (
        <>
          <ol className="queue" aria-label="Applications">
            {orders.map((order) => (
              <li key={order.id} className="queue__item">
                <Link href={`/staff/applications/${order.id}`} className="queue__link">
                  <span className="queue__title">
                    {order.adopter.name} for {petNames.get(order.petId) ?? `animal #${order.petId}`}
                  </span>
                  <span className="queue__meta">
                    Application #{order.id} · <StoreTime at={order.placedAt} />
                  </span>
                </Link>
                <OrderStatusBadge status={order.status} />
              </li>
            ))}
          </ol>
          <Pagination
            previousHref={cursor ? hrefFor(status, petId) : undefined}
            nextHref={
              page.data.nextCursor ? hrefFor(status, petId, page.data.nextCursor) : undefined
            }
          />
        </>
      )}
    </>
  );
};

export default ApplicationsPage;
