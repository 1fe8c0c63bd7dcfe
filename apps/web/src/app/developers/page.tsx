import { PLAN_TITLES } from '@pets/contract/rules';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Panel } from '@/components/panel';
import { portalReadFailure } from '@/components/portal-read-failure';
import { StoreTime } from '@/components/store-time';
import { TableScroll } from '@/components/table-scroll';
import { requireDeveloper } from '@/lib/session';
import { getKeyUsage, getOrganization, getOrgUsageNow, listOrgKeys } from '@/lib/site-api';
import { totalOf, usageDays } from '@/lib/usage-view';
import { Unverified } from './unverified';

export const metadata: Metadata = { title: 'Developer dashboard' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const count = (value: number) => value.toLocaleString('en-GB');

/**
 * The portal's home: the organisation, its plan and limits, and its keys at a glance with their
 * requests in the current minute and day. An address not confirmed yet sees "check your email".
 */
const DashboardPage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  const query = await searchParams;
  if (!developer.emailVerified) {
    return (
      <Unverified
        email={developer.email}
        resent={typeof query.resent === 'string' ? query.resent : undefined}
      />
    );
  }
  const [organization, keys, now] = await Promise.all([
    getOrganization(developer.apiKey),
    listOrgKeys(developer.apiKey),
    getOrgUsageNow(developer.apiKey),
  ]);
  if (!organization.ok) {
    return portalReadFailure(organization.failure, '/developers');
  }
  if (!keys.ok) {
    return portalReadFailure(keys.failure, '/developers');
  }
  const active = keys.data.filter((key) => key.status === 'active');
  // The last 30 days of every key that was ever used (a key never used has no requests).
  const usages = await Promise.all(
    keys.data
      .filter((key) => key.lastUsedAt !== null)
      .slice(0, 50)
      .map((key) => getKeyUsage(developer.apiKey, key.id, 30)),
  );
  const month = usageDays(usages.flatMap((usage) => (usage.ok ? [usage.data] : [])));
  const monthTotal = month.reduce((sum, day) => sum + totalOf(day), 0);
  const monthLimited = month.reduce((sum, day) => sum + day.limited, 0);
  const { plan, limits, planRequest } = organization.data;
  const pending = planRequest?.status === 'pending' ? planRequest : null;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">{organization.data.name}</h1>
        <p className="lead">Your organisation's plan, keys and requests.</p>
      </div>
      {query.verified !== undefined ? (
        <p className="notice" role="status">
          Your email address is confirmed. You can create keys now.
        </p>
      ) : null}
      <div className="portal-cards">
        <Panel id="plan" title={`Plan: ${PLAN_TITLES[plan]}`}>
          <dl className="portal-facts">
            <dt>Requests per minute, per key</dt>
            <dd>{count(limits.perMinute)}</dd>
            <dt>Requests per day, per key</dt>
            <dd>{count(limits.perDay)}</dd>
          </dl>
          {pending ? (
            <p>
              You asked for the {PLAN_TITLES[pending.requestedPlan]} plan on{' '}
              <StoreTime at={pending.createdAt} />; staff will answer by email.{' '}
              <Link href="/developers/plan">See your request</Link>
            </p>
          ) : (
            <p>
              <Link href="/developers/plan">See the plans, or ask for another</Link>
            </p>
          )}
        </Panel>
        <Panel id="keys" title="Keys">
          <p>
            {active.length === 0
              ? 'No active key yet.'
              : `${active.length} active ${active.length === 1 ? 'key' : 'keys'} (${
                  active.filter((key) => key.mode === 'live').length
                } live, ${active.filter((key) => key.mode === 'test').length} test).`}
          </p>
          <p>
            <Link href={active.length === 0 ? '/developers/keys/new' : '/developers/keys'}>
              {active.length === 0 ? 'Create your first key' : 'See and manage your keys'}
            </Link>
          </p>
        </Panel>
        <Panel id="requests" title="Requests, last 30 days">
          <p>
            {usages.some((usage) => !usage.ok)
              ? 'The counts cannot be read right now.'
              : `${count(monthTotal)} ${monthTotal === 1 ? 'request' : 'requests'}, ${count(
                  monthLimited,
                )} of them refused for the rate limit (429).`}
          </p>
          <p>
            <Link href="/developers/usage">See usage per day</Link>
          </p>
        </Panel>
      </div>
      <h2>Requests now</h2>
      {!now.ok ? (
        <p className="notice">The current counts cannot be read right now.</p>
      ) : now.data.keys.length === 0 ? (
        <p className="notice">No requests yet: your keys' counts show here.</p>
      ) : (
        <TableScroll label="Requests now">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">This minute</th>
                <th scope="col">Today</th>
              </tr>
            </thead>
            <tbody>
              {now.data.keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">
                    {key.name} <code>{key.start}…</code>
                  </th>
                  <td>
                    {count(key.minute.used)} of {count(key.minute.limit)}
                  </td>
                  <td>
                    {count(key.day.used)} of {count(key.day.limit)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
};

export default DashboardPage;
