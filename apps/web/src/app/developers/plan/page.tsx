import { PLAN_LIMITS, PLAN_TITLES, PLANS } from '@pets/contract/rules';
import { PLAN_REQUEST_TEXT_MAX, type TPlanRequest } from '@pets/contract/site';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Panel } from '@/components/panel';
import { portalReadFailure } from '@/components/portal-read-failure';
import { StoreTime } from '@/components/store-time';
import { TableScroll } from '@/components/table-scroll';
import { requireDeveloper } from '@/lib/session';
import { getOrganization } from '@/lib/site-api';
import { withdrawPlan } from '../actions';
import { Unverified } from '../unverified';
import { PlanRequestForm } from './plan-request-form';

export const metadata: Metadata = { title: 'Your plan' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const count = (value: number) => value.toLocaleString('en-GB');

/** The latest decision, in a sentence: what staff answered, and their note. */
const Decision = ({ request }: { request: TPlanRequest }) => {
  const asked = PLAN_TITLES[request.requestedPlan];
  const when = request.decidedAt ? <StoreTime at={request.decidedAt} /> : null;
  return (
    <div className="notice">
      <p>
        {request.status === 'approved' ? (
          <>
            Your request for the {asked} plan was approved on {when}.
          </>
        ) : request.status === 'declined' ? (
          <>
            Your request for the {asked} plan was declined on {when}.
          </>
        ) : (
          <>
            You withdrew your request for the {asked} plan on {when}.
          </>
        )}
      </p>
      {request.decisionNote ? <p>Our note: {request.decisionNote}</p> : null}
    </div>
  );
};

/**
 * The organisation's plan: the limits every key gets, the plans there are, and a request for
 * another one (staff approve or decline it in the back office; the developer is emailed). One
 * request waits at a time; it can be withdrawn until it is decided. Works without JavaScript.
 */
const PlanPage = async ({ searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const query = await searchParams;
  const organization = await getOrganization(developer.apiKey);
  if (!organization.ok) {
    return portalReadFailure(organization.failure, '/developers/plan');
  }
  const { plan, limits, planRequest } = organization.data;
  const pending = planRequest?.status === 'pending' ? planRequest : null;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Your plan</h1>
        <p className="lead">
          The plan of {organization.data.name} sets how many requests each of its keys may make.
        </p>
      </div>
      {query.requested !== undefined && pending ? (
        <p className="notice" role="status">
          Your request is sent. We will email you when it is decided.
        </p>
      ) : null}
      {query.withdrawn === '1' ? (
        <p className="notice" role="status">
          Your request is withdrawn.
        </p>
      ) : query.withdrawn === 'failed' ? (
        <p className="notice" role="alert">
          The request could not be withdrawn: it may have been decided already.
        </p>
      ) : null}
      <div className="portal-cards">
        <Panel id="current-plan" title={`Plan: ${PLAN_TITLES[plan]}`}>
          <dl className="portal-facts">
            <dt>Requests per minute, per key</dt>
            <dd>{count(limits.perMinute)}</dd>
            <dt>Requests per day, per key</dt>
            <dd>{count(limits.perDay)}</dd>
          </dl>
        </Panel>
      </div>
      <h2>The plans</h2>
      <TableScroll label="The plans">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Requests per minute</th>
              <th scope="col">Requests per day</th>
            </tr>
          </thead>
          <tbody>
            {PLANS.map((each) => {
              const fixed = PLAN_LIMITS[each];
              return (
                <tr key={each} aria-current={each === plan ? 'true' : undefined}>
                  <th scope="row">
                    {PLAN_TITLES[each]}
                    {each === plan ? ' (yours)' : ''}
                  </th>
                  <td>{fixed ? count(fixed.perMinute) : 'Agreed with you'}</td>
                  <td>{fixed ? count(fixed.perDay) : 'Agreed with you'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <h2>Change your plan</h2>
      {pending ? (
        <section aria-labelledby="pending-request" className="narrow">
          <h3 id="pending-request">Waiting for our answer</h3>
          <p>
            You asked for the <strong>{PLAN_TITLES[pending.requestedPlan]}</strong> plan on{' '}
            <StoreTime at={pending.createdAt} />. We will email you when it is decided; your keys
            keep their limits until then.
          </p>
          {pending.message ? <p>Your message: {pending.message}</p> : null}
          <form action={withdrawPlan} className="form">
            <input type="hidden" name="id" value={pending.id} />
            <div className="form__actions">
              <button type="submit" className="button button--secondary">
                Withdraw the request
              </button>
            </div>
          </form>
        </section>
      ) : (
        <div className="narrow">
          {planRequest ? <Decision request={planRequest} /> : null}
          <p>
            Staff look at each request and email you their answer. An approved plan applies to every
            key within a few seconds.
          </p>
          <PlanRequestForm current={plan} maxMessage={PLAN_REQUEST_TEXT_MAX} />
        </div>
      )}
    </>
  );
};

export default PlanPage;
