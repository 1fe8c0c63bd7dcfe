import { type TOrderStatus, ZOrderStatus } from '@pets/contract/schemas';
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
import { asPageFailure, listOrders, listPetsAsStaff } from '@/lib/staff-api';
import { ORDER_STATUS_LOOKS, OrderStatusBadge } from './order-status';

export const metadata: Metadata = { title: 'Applications' };

const PAGE_SIZE = 20;

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const hrefFor = (status: TOrderStatus | undefined, cursor?: string): string => {
  const query = new URLSearchParams();
  if (status) {
    query.set('status', status);
  }
  if (cursor) {
    query.set('cursor', cursor);
  }
  const text = query.toString();
  return text ? `/staff/applications?${text}` : '/staff/applications';
};

/** The queue: every application, newest first, like an inbox; filter by status; pages. */
const ApplicationsPage = async ({ searchParams }: TProps) => {
  await connection();
  const { apiKey } = await requireStaffKey();
  const query = await searchParams;
  const parsedStatus = ZOrderStatus.safeParse(one(query.status));
  const status = parsedStatus.success ? parsedStatus.data : undefined;
  const cursor = one(query.cursor);

  const page = await listOrders(apiKey, { status, cursor, limit: PAGE_SIZE });
  if (!page.ok && page.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  const petIds = page.ok ? [...new Set(page.data.orders.map((order) => order.petId))] : [];
  const pets =
    petIds.length > 0
      ? await listPetsAsStaff(apiKey, { id: petIds.join(','), limit: petIds.length })
      : undefined;
  const petNames = new Map(pets?.ok ? pets.data.pets.map((pet) => [pet.id, pet.name]) : []);

  return (
    <>
      <PageIntro title="Applications">
        Newest first. Open one to approve, complete or cancel it.
      </PageIntro>
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
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {!page.ok ? (
        <ApiFailure failure={asPageFailure(page.failure)} retryHref={hrefFor(status)} />
      ) : page.data.orders.length === 0 ? (
        <StatePanel
          icon={Inbox}
          title={
            status
              ? `No ${ORDER_STATUS_LOOKS[status].label.toLowerCase()} applications`
              : 'No applications yet'
          }
          role="status"
          actions={
            status ? (
              <Link href="/staff/applications" className="button button--secondary">
                Show all applications
              </Link>
            ) : undefined
          }
        >
          <p>
            {status ? 'Nothing matches this filter right now.' : 'New applications appear here.'}
          </p>
        </StatePanel>
      ) : (
        <>
          <ol className="queue" aria-label="Applications">
            {page.data.orders.map((order) => (
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
            previousHref={cursor ? hrefFor(status) : undefined}
            nextHref={page.data.nextCursor ? hrefFor(status, page.data.nextCursor) : undefined}
          />
        </>
      )}
    </>
  );
};

export default ApplicationsPage;
