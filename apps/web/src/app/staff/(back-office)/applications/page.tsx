import {
  type TOrder,
  type TOrderStatus,
  ZListOrdersQuery,
  ZOrderStatus,
} from '@pets/contract/schemas';
import { Inbox, Search } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { FieldError } from '@/components/form/field';
import { PageIntro } from '@/components/page-intro';
import { Pagination } from '@/components/pagination';
import { StatePanel } from '@/components/state-panel';
import { requireStaffKey, SESSION_EXPIRED_PATH } from '@/lib/session';
import {
  asPageFailure,
  listOrders,
  listPetsAsStaff,
  type TOrdersPage,
  type TStaffResult,
} from '@/lib/staff-api';
import { ApplicationComparison, ApplicationQueue } from './application-lists';
import { ORDER_STATUS_LOOKS } from './order-status';

export const metadata: Metadata = { title: 'Applications' };

const PAGE_SIZE = 20;
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
  q: string | undefined,
): Promise<TStaffResult<TOrdersPage & { isCut: boolean }>> => {
  const orders: TOrder[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < ANIMAL_MAX_PAGES; page += 1) {
    const read = await listOrders(apiKey, { status, petId, q, cursor, limit: ANIMAL_PAGE_SIZE });
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

type TQueueFilters = { status?: TOrderStatus; petId?: number; q?: string };

const hrefFor = ({ status, petId, q }: TQueueFilters, cursor?: string): string => {
  const query = new URLSearchParams();
  if (q) {
    query.set('q', q);
  }
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

const SEARCH_PROBLEM =
  'Type a name, an email address or a reference such as A-12 (at least one letter or digit).';

/**
 * The queue: every application, newest first, like an inbox, each animal's together with a way to
 * compare them; search by name, email address or reference, filter by status. One animal's
 * applications (`petId`) are shown side by side in arrival order (oldest first), to compare them.
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
  const typed = one(query.q)?.trim() || undefined;
  const parsedSearch = typed ? ZListOrdersQuery.shape.q.safeParse(typed) : undefined;
  const q = parsedSearch?.success ? parsedSearch.data : undefined;
  const searchProblem = parsedSearch && !parsedSearch.success ? SEARCH_PROBLEM : undefined;
  const filters: TQueueFilters = { status, petId, q };

  const page = petId
    ? await animalApplications(apiKey, petId, status, q)
    : await listOrders(apiKey, { status, q, cursor, limit: PAGE_SIZE });
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
  const isFiltered = Boolean(status || petId || q);

  return (
    <>
      <PageIntro title={animalName ? `Applications for ${animalName}` : 'Applications'}>
        {animalName
          ? 'Side by side, in the order they arrived. Open one to approve, decline, complete or cancel it.'
          : "Newest first, each animal's together. Open one to approve, decline, complete or cancel it."}
      </PageIntro>
      {petId ? (
        <p className="queue__filter">
          Showing one animal&apos;s applications
          {isCut ? `: the newest ${ANIMAL_PAGE_SIZE * ANIMAL_MAX_PAGES}` : ''}.
          <Link href={hrefFor({ status, q })}>Show every animal&apos;s applications</Link>
        </p>
      ) : null}
      <form
        method="get"
        action="/staff/applications"
        className="filters applications-filters"
        aria-label="Find applications"
      >
        <div className="filters__search">
          <label htmlFor="applications-search" className="filters__label">
            Search by name, email or reference
          </label>
          <input
            id="applications-search"
            name="q"
            type="search"
            defaultValue={typed ?? ''}
            autoComplete="off"
            aria-invalid={searchProblem ? true : undefined}
            aria-describedby={searchProblem ? 'applications-search-error' : undefined}
            className="input"
          />
          <FieldError id="applications-search-error" message={searchProblem} />
        </div>
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
          <Search aria-hidden="true" focusable="false" className="button__icon" />
          Show
        </button>
      </form>
      {!page.ok ? (
        <ApiFailure failure={asPageFailure(page.failure)} retryHref={hrefFor(filters)} />
      ) : orders.length === 0 ? (
        <StatePanel
          icon={Inbox}
          title={
            q
              ? `No applications found for “${typed}”`
              : status
                ? `No ${ORDER_STATUS_LOOKS[status].label.toLowerCase()} applications`
                : 'No applications yet'
          }
          role="status"
          actions={
            isFiltered ? (
              <Link href="/staff/applications" className="button button--secondary">
                Show all applications
              </Link>
            ) : undefined
          }
        >
          <p>
            {isFiltered
              ? 'Nothing matches this filter right now.'
              : 'New applications appear here.'}
          </p>
        </StatePanel>
      ) : petId ? (
        <ApplicationComparison orders={orders} petName={animalName ?? `animal #${petId}`} />
      ) : (
        <>
          <ApplicationQueue orders={orders} petNames={petNames} />
          <Pagination
            previousHref={cursor ? hrefFor(filters) : undefined}
            nextHref={page.data.nextCursor ? hrefFor(filters, page.data.nextCursor) : undefined}
          />
        </>
      )}
    </>
  );
};

export default ApplicationsPage;
