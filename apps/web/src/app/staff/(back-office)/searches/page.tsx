import { savedSearchInWords } from '@pets/contract/rules';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { staffReadFailure } from '@/components/staff-read-failure';
import { listCategories } from '@/lib/api';
import { requireStaffKey } from '@/lib/session';
import { listWaitingSearches } from '@/lib/site-api';

export const metadata: Metadata = { title: 'Saved searches' };

/**
 * What people wait for (issue 28): the confirmed, subscribed saved searches, grouped by their
 * filters in words, with how many people wait for each. Counts only: no address is ever shown.
 */
const SearchesPage = async () => {
  await connection();
  const staff = await requireStaffKey();
  const [waiting, categories] = await Promise.all([
    listWaitingSearches(staff.apiKey),
    listCategories(),
  ]);
  if (!waiting.ok) {
    return staffReadFailure(
      waiting.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/searches',
    );
  }
  const names = new Map((categories.ok ? categories.data : []).map((each) => [each.id, each.name]));
  const { filters, total } = waiting.data;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Saved searches</h1>
        <p className="lead">
          What people asked to be emailed about when a new animal matches: confirmed searches that
          have not been stopped, most wanted first.{' '}
          {total === 1 ? '1 search in all.' : `${total} searches in all.`}
        </p>
      </div>
      {filters.length === 0 ? (
        <p role="status">Nobody is waiting for an alert yet.</p>
      ) : (
        <ol className="queue" aria-label="Saved searches by filter">
          {filters.map(({ filter, searches }) => (
            <li key={JSON.stringify(filter)} className="queue__item">
              <span className="queue__title">
                {savedSearchInWords(filter, (id) => names.get(id))}
              </span>
              <span className="queue__meta">
                {searches === 1 ? '1 person waits' : `${searches} people wait`}
              </span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
};

export default SearchesPage;
