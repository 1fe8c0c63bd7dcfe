import type { Metadata } from 'next';
import { connection } from 'next/server';
import { portalReadFailure } from '@/components/portal-read-failure';
import { TableScroll } from '@/components/table-scroll';
import { UsageChart } from '@/components/usage-chart';
import { requireDeveloper } from '@/lib/session';
import { getKeyUsage, listOrgKeys } from '@/lib/site-api';
import { totalOf, usageDays } from '@/lib/usage-view';
import { Unverified } from '../unverified';

export const metadata: Metadata = { title: 'Usage' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DAYS = 30;
const count = (value: number) => value.toLocaleString('en-GB');

/**
 * Requests per UTC day over the last 30 days, every key of the organisation or one: a chart
 * (recharts, client) and the same numbers in a table rendered here, which is what screen
 * readers and the tests read. Counts arrive within seconds (the API flushes them in batches).
 */
const UsagePage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const query = await searchParams;
  const keys = await listOrgKeys(developer.apiKey);
  if (!keys.ok) {
    return portalReadFailure(keys.failure, '/developers/usage');
  }
  const chosen = keys.data.find((key) => key.id === query.key);
  const shown = chosen ? [chosen] : keys.data.slice(0, 50);
  const usages = await Promise.all(shown.map((key) => getKeyUsage(developer.apiKey, key.id, DAYS)));
  const failed = usages.find((usage) => !usage.ok);
  if (failed && !failed.ok) {
    return portalReadFailure(failed.failure, '/developers/usage');
  }
  const days = usageDays(usages.flatMap((usage) => (usage.ok ? [usage.data] : [])));
  const total = days.reduce((sum, day) => sum + totalOf(day), 0);
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Usage</h1>
        <p className="lead">
          Requests per day (UTC) over the last {DAYS} days,{' '}
          {chosen ? `with the key “${chosen.name}”` : 'with every key of your organisation'}:{' '}
          {count(total)} in all. New requests show within a minute.
        </p>
      </div>
      {keys.data.length > 0 ? (
        <form method="get" className="usage-filter">
          <label htmlFor="usage-key" className="field__label">
            Key
          </label>
          <select id="usage-key" name="key" defaultValue={chosen?.id ?? ''} className="input">
            <option value="">Every key</option>
            {keys.data.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} ({key.start}…)
              </option>
            ))}
          </select>
          <button type="submit" className="button button--secondary button--small">
            Show
          </button>
        </form>
      ) : null}
      <UsageChart days={days} />
      <details className="usage-table">
        <summary>Show as a table</summary>
        <TableScroll label="Requests per day">
          <table className="data-table">
            <caption className="visually-hidden">Requests per day (UTC), by outcome</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Client errors</th>
                <th scope="col">Rate-limited</th>
                <th scope="col">Server errors</th>
                <th scope="col">All</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td>{count(day.success)}</td>
                  <td>{count(day.clientError)}</td>
                  <td>{count(day.limited)}</td>
                  <td>{count(day.serverError)}</td>
                  <td>{count(totalOf(day))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </>
  );
};

export default UsagePage;
