import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { portalReadFailure } from '@/components/portal-read-failure';
import { TableScroll } from '@/components/table-scroll';
import { UsageChart } from '@/components/usage-chart';
import { requireDeveloper } from '@/lib/session';
import { getKeyUsage, listOrgKeys } from '@/lib/site-api';
import {
  hourLabel,
  RECENT_HOURS,
  type TUsageBar,
  type TUsageCounts,
  totalOf,
  usageDays,
  usageHours,
  usageWindowOf,
} from '@/lib/usage-view';
import { Unverified } from '../unverified';

export const metadata: Metadata = { title: 'Usage' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DAYS = 30;
const count = (value: number) => value.toLocaleString('en-GB');

/** The page's address for a key (or every key), per day or for one day's hours. */
const usageHref = (key: string | undefined, hours?: { day?: string }): string => {
  const query = new URLSearchParams();
  if (key) {
    query.set('key', key);
  }
  if (hours) {
    query.set('granularity', 'hour');
    if (hours.day) {
      query.set('day', hours.day);
    }
  }
  const text = query.toString();
  return text === '' ? '/developers/usage' : `/developers/usage?${text}`;
};

/** The table's rows, newest first: a day (a link to its hours) or an hour. */
type TRow = TUsageCounts & { id: string; heading: ReactNode };

/**
 * Requests over the last 30 days, every key of the organisation or one, per UTC day or per hour
 * (`?granularity=hour`: the last 48 hours, or `&day=YYYY-MM-DD` for that day's 24 hours, which
 * each day of the daily table links to): a chart (recharts, client) and the same numbers in a
 * table rendered here, which is what screen readers and the tests read. The choices are a GET
 * form and links, so everything works without JavaScript. Counts arrive within seconds (the API
 * flushes them in batches).
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
  const data = usages.flatMap((usage) => (usage.ok ? [usage.data] : []));
  const view = usageWindowOf(query, new Date(), DAYS);
  let bars: TUsageBar[];
  let rows: TRow[];
  let period: string;
  if (view.by === 'hour') {
    const hours = usageHours(data, view.from, view.to);
    bars = hours.map((hour) => ({
      ...hour,
      label: view.day
        ? hour.hour.slice(11, 16)
        : `${hour.hour.slice(8, 10)} ${hour.hour.slice(11, 16)}`,
    }));
    rows = hours.map((hour) => ({ ...hour, id: hour.hour, heading: hourLabel(hour.hour) }));
    period = view.day
      ? `Requests per hour (UTC) on ${view.day}`
      : `Requests per hour (UTC) over the last ${RECENT_HOURS} hours`;
  } else {
    const days = usageDays(data);
    bars = days.map((day) => ({ ...day, label: day.day.slice(5) }));
    rows = days.map((day) => ({
      ...day,
      id: day.day,
      heading: (
        <Link href={usageHref(chosen?.id, { day: day.day })}>
          {day.day}
          <span className="visually-hidden">, per hour</span>
        </Link>
      ),
    }));
    period = `Requests per day (UTC) over the last ${DAYS} days`;
  }
  const total = rows.reduce((sum, row) => sum + totalOf(row), 0);
  const unit = view.by === 'hour' ? 'hour' : 'day';
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Usage</h1>
        <p className="lead">
          {period},{' '}
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
          <label htmlFor="usage-granularity" className="field__label">
            Per
          </label>
          <select
            id="usage-granularity"
            name="granularity"
            defaultValue={view.by}
            className="input"
          >
            <option value="day">Day, last {DAYS} days</option>
            <option value="hour">Hour, last {RECENT_HOURS} hours</option>
          </select>
          <button type="submit" className="button button--secondary button--small">
            Show
          </button>
        </form>
      ) : null}
      {view.by === 'hour' && view.day ? (
        <p>
          <Link href={usageHref(chosen?.id, {})}>The last {RECENT_HOURS} hours</Link> ·{' '}
          <Link href={usageHref(chosen?.id)}>Per day</Link>
        </p>
      ) : view.by === 'day' ? (
        <p className="field__hint">In the table, each day links to its 24 hours.</p>
      ) : null}
      <UsageChart bars={bars} title={`Requests per ${unit}, by outcome`} />
      <details className="usage-table">
        <summary>Show as a table</summary>
        <TableScroll label={`Requests per ${unit}`}>
          <table className="data-table">
            <caption className="visually-hidden">{period}, by outcome</caption>
            <thead>
              <tr>
                <th scope="col">{view.by === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Client errors</th>
                <th scope="col">Rate-limited</th>
                <th scope="col">Server errors</th>
                <th scope="col">All</th>
              </tr>
            </thead>
            <tbody>
              {[...rows].reverse().map((row) => (
                <tr key={row.id}>
                  <th scope="row">{row.heading}</th>
                  <td>{count(row.success)}</td>
                  <td>{count(row.clientError)}</td>
                  <td>{count(row.limited)}</td>
                  <td>{count(row.serverError)}</td>
                  <td>{count(totalOf(row))}</td>
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
