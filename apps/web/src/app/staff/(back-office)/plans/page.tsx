import { PLAN_TITLES } from '@pets/contract/rules';
import { PLAN_REQUEST_TEXT_MAX, type TPlanRequest, ZPlanRequestStatus } from '@pets/contract/site';
import { Inbox } from 'lucide-react';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Field } from '@/components/form/field';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StatePanel } from '@/components/state-panel';
import { StoreTime } from '@/components/store-time';
import { requireStaffKey } from '@/lib/session';
import { listPlanRequests } from '@/lib/site-api';
import { decidePlan, setLimits } from './actions';

export const metadata: Metadata = { title: 'Plan requests' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const STATUS_LABELS = {
  pending: 'Waiting for a decision',
  approved: 'Approved',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
} as const;

const count = (value: number) => value.toLocaleString('en-GB');

/** One pending request's decision: a note, Enterprise limits, approve or decline. */
const DecideForm = ({ request }: { request: TPlanRequest }) => {
  const isEnterprise = request.requestedPlan === 'enterprise';
  const title = `${request.organization.name}: ${PLAN_TITLES[request.requestedPlan]}`;
  return (
    <form action={decidePlan} className="form plan-decision" aria-label={`Decide ${title}`}>
      <input type="hidden" name="id" value={request.id} />
      <Field
        id={`note-${request.id}`}
        label="Note to the developer (optional)"
        hint="Sent in the email with the decision."
      >
        {(control) => (
          <textarea
            {...control}
            name="note"
            rows={2}
            maxLength={PLAN_REQUEST_TEXT_MAX}
            className="textarea"
          />
        )}
      </Field>
      {isEnterprise ? (
        <fieldset className="field">
          <legend className="field__label">Enterprise limits, per key (needed to approve)</legend>
          <Field id={`rpm-${request.id}`} label="Requests per minute (rpm)">
            {(control) => (
              <input {...control} name="rpm" type="number" min={1} step={1} className="input" />
            )}
          </Field>
          <Field id={`rpd-${request.id}`} label="Requests per day (rpd)">
            {(control) => (
              <input {...control} name="rpd" type="number" min={1} step={1} className="input" />
            )}
          </Field>
        </fieldset>
      ) : null}
      <div className="form__actions">
        <button type="submit" name="decision" value="approve" className="button">
          Approve<span className="visually-hidden">: {title}</span>
        </button>
        <button type="submit" name="decision" value="decline" className="button button--secondary">
          Decline<span className="visually-hidden">: {title}</span>
        </button>
      </div>
    </form>
  );
};

/** An Enterprise organisation's limits, set again (they apply to its keys within seconds). */
const LimitsForm = ({ request }: { request: TPlanRequest }) => {
  const { organization } = request;
  const id = `${request.id}-limits`;
  return (
    <form
      action={setLimits}
      className="form plan-decision"
      aria-label={`Limits of ${organization.name}`}
    >
      <input type="hidden" name="organizationId" value={organization.id} />
      <fieldset className="field">
        <legend className="field__label">Change the limits of {organization.name}, per key</legend>
        <Field id={`rpm-${id}`} label="Requests per minute (rpm)">
          {(control) => (
            <input
              {...control}
              name="rpm"
              type="number"
              min={1}
              step={1}
              required
              defaultValue={organization.limits.perMinute}
              className="input"
            />
          )}
        </Field>
        <Field id={`rpd-${id}`} label="Requests per day (rpd)">
          {(control) => (
            <input
              {...control}
              name="rpd"
              type="number"
              min={1}
              step={1}
              required
              defaultValue={organization.limits.perDay}
              className="input"
            />
          )}
        </Field>
      </fieldset>
      <div className="form__actions">
        <button type="submit" className="button button--secondary">
          Save the limits<span className="visually-hidden">: {organization.name}</span>
        </button>
      </div>
    </form>
  );
};

/**
 * Developers' plan requests, a queue like applications (the oldest pending first). Admins approve
 * (Enterprise with its limits) or decline, with a note; the developer is emailed and an approved
 * plan applies to the organisation's keys within seconds. Staff read the queue (to answer a
 * developer who asks) and are told that the decision is an admin's. Works without JavaScript.
 */
const PlansPage = async ({ searchParams }: TProps) => {
  await connection();
  const member = await requireStaffKey();
  const isAdmin = member.role === 'admin';
  const query = await searchParams;
  const parsed = ZPlanRequestStatus.safeParse(first(query.status));
  const status = parsed.success ? parsed.data : 'pending';
  const requests = await listPlanRequests(member.apiKey, status);
  if (!requests.ok) {
    return staffReadFailure(
      requests.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/plans',
    );
  }
  const refused = first(query.refused);
  const decided = first(query.decided);
  const organization = first(query.organization);
  const limited = first(query.limited);
  // An Enterprise organisation's limits are offered once: on its newest approved request.
  const limitsOn = new Set<string>();
  const organizations = new Set<string>();
  for (const request of requests.data) {
    if (
      request.status === 'approved' &&
      request.organization.plan === 'enterprise' &&
      !organizations.has(request.organization.id)
    ) {
      organizations.add(request.organization.id);
      limitsOn.add(request.id);
    }
  }
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Plan requests</h1>
        <p className="lead">
          Developers asking for another plan. An approved plan applies to their keys within seconds,
          and they are emailed either way.
        </p>
      </div>
      {isAdmin ? null : (
        <p className="notice">
          Only an admin decides a plan request or changes an organisation&apos;s limits, since they
          change what the organisation may spend of the API. You can read the requests here; the
          admins are emailed about each new one.
        </p>
      )}
      {refused ? (
        <p className="notice" role="alert">
          {refused.slice(0, 300)}
        </p>
      ) : null}
      {limited ? (
        <p className="notice" role="status">
          Saved: the limits of {limited.slice(0, 100)}. Its keys get them within seconds.
        </p>
      ) : null}
      {decided && organization ? (
        <p className="notice" role="status">
          {decided === 'approved' ? 'Approved' : 'Declined'}: {organization.slice(0, 100)}. The
          developer is emailed.
        </p>
      ) : null}
      <form method="get" action="/staff/plans" className="filters" aria-label="Filter">
        <div className="filters__field">
          <label htmlFor="plan-status-filter" className="filters__label">
            Status
          </label>
          <select id="plan-status-filter" name="status" defaultValue={status} className="select">
            {ZPlanRequestStatus.options.map((each) => (
              <option key={each} value={each}>
                {STATUS_LABELS[each]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {requests.data.length === 0 ? (
        <StatePanel
          icon={Inbox}
          title={status === 'pending' ? 'No plan requests waiting' : 'None yet'}
          role="status"
        >
          <p>
            {status === 'pending'
              ? 'When a developer asks for another plan, the request shows here.'
              : `No request is ${STATUS_LABELS[status].toLowerCase()}.`}
          </p>
        </StatePanel>
      ) : (
        <ol className="queue" aria-label="Plan requests">
          {requests.data.map((request) => (
            <li key={request.id} className="queue__item plan-request">
              <h2 className="queue__title plan-request__title">
                {request.organization.name}: {PLAN_TITLES[request.currentPlan]} →{' '}
                {PLAN_TITLES[request.requestedPlan]}
              </h2>
              <p className="queue__meta plan-request__meta">
                {request.requestedBy
                  ? `${request.requestedBy.name} (${request.requestedBy.email}${request.requestedBy.emailConfirmed ? '' : ', unconfirmed'})`
                  : 'A former member'}{' '}
                · asked <StoreTime at={request.createdAt} /> · now{' '}
                {PLAN_TITLES[request.organization.plan]} (
                {count(request.organization.limits.perMinute)} a minute,{' '}
                {count(request.organization.limits.perDay)} a day)
              </p>
              {request.message ? (
                <blockquote className="plan-request__message">{request.message}</blockquote>
              ) : null}
              {request.status === 'pending' ? (
                isAdmin ? (
                  <DecideForm request={request} />
                ) : (
                  <p className="queue__meta plan-request__meta">
                    Waiting for an admin&apos;s decision
                  </p>
                )
              ) : (
                <p className="queue__meta plan-request__meta">
                  {STATUS_LABELS[request.status]}
                  {request.decidedAt ? (
                    <>
                      {' '}
                      <StoreTime at={request.decidedAt} />
                    </>
                  ) : null}
                  {request.decidedByName ? ` by ${request.decidedByName}` : ''}
                  {request.limits
                    ? ` · ${count(request.limits.perMinute)} a minute, ${count(request.limits.perDay)} a day`
                    : ''}
                  {request.decisionNote ? ` · note: ${request.decisionNote}` : ''}
                </p>
              )}
              {isAdmin && limitsOn.has(request.id) ? <LimitsForm request={request} /> : null}
            </li>
          ))}
        </ol>
      )}
    </>
  );
};

export default PlansPage;
