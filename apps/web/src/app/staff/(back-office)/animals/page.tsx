import { PawPrint } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { PageIntro } from '@/components/page-intro';
import { Pagination } from '@/components/pagination';
import { StatePanel } from '@/components/state-panel';
import { StatusBadge } from '@/components/status-badge';
import { listCategories } from '@/lib/api';
import { requireStaffKey, SESSION_EXPIRED_PATH } from '@/lib/session';
import { asPageFailure, listPetsAsStaff } from '@/lib/staff-api';

export const metadata: Metadata = { title: 'Animals' };

const PAGE_SIZE = 20;

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const hrefFor = (cursor?: string) =>
  cursor ? `/staff/animals?cursor=${encodeURIComponent(cursor)}` : '/staff/animals';

/** Every animal, newest first, each with a link to edit it. */
const AnimalsPage = async ({ searchParams }: TProps) => {
  await connection();
  const { apiKey } = await requireStaffKey();
  const raw = (await searchParams).cursor;
  const cursor = typeof raw === 'string' && raw !== '' ? raw : undefined;
  const [page, categories] = await Promise.all([
    listPetsAsStaff(apiKey, { cursor, limit: PAGE_SIZE }),
    listCategories(),
  ]);
  if (!page.ok && page.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  const categoryNames = new Map(
    categories.ok ? categories.data.map((category) => [category.id, category.name]) : [],
  );
  return (
    <>
      <PageIntro title="Animals">
        Newest first. <Link href="/staff/animals/new">Add an animal</Link> or open one to change its
        details, its story and its photos.
      </PageIntro>
      {!page.ok ? (
        <ApiFailure failure={asPageFailure(page.failure)} retryHref={hrefFor()} />
      ) : page.data.pets.length === 0 ? (
        <StatePanel icon={PawPrint} title="No animals yet" role="status">
          <p>
            <Link href="/staff/animals/new">Add the first one</Link>.
          </p>
        </StatePanel>
      ) : (
        <>
          <ol className="queue" aria-label="Animals">
            {page.data.pets.map((pet) => (
              <li key={pet.id} className="queue__item">
                <Link href={`/staff/animals/${pet.id}`} className="queue__link">
                  <span className="queue__title">{pet.name}</span>
                  <span className="queue__meta">
                    {categoryNames.get(pet.categoryId) ?? 'Animal'} · #{pet.id}
                  </span>
                </Link>
                <StatusBadge status={pet.status} />
              </li>
            ))}
          </ol>
          <Pagination
            previousHref={cursor ? hrefFor() : undefined}
            nextHref={page.data.nextCursor ? hrefFor(page.data.nextCursor) : undefined}
          />
        </>
      )}
    </>
  );
};

export default AnimalsPage;
