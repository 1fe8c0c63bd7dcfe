import type { TWebhookDelivery } from '@pets/contract';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { FormError } from '@/components/form/form-error';
import { portalReadFailure } from '@/components/portal-read-failure';
import { StoreTime } from '@/components/store-time';
import { TableScroll } from '@/components/table-scroll';
import { requireDeveloper } from '@/lib/session';
import { listKeyWebhookDeliveries, listKeyWebhooks } from '@/lib/site-api';
import { eventsInWords } from '@/lib/webhook-words';
import { Unverified } from '../../../unverified';
import { sendTestEvent } from '../../actions';

export const metadata: Metadata = { title: 'Webhook endpoint' };

type TProps = {
  params: Promise<{ keyId: string; endpointId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const STATUS_WORDS: Record<TWebhookDelivery['status'], string> = {
  pending: 'Sending',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** The last attempt of a delivery in words: the receiver's answer and how long it took. */
const lastAttempt = (delivery: TWebhookDelivery): string => {
  const attempt = delivery.attempts.at(-1);
  if (!attempt) {
    return 'Not tried yet';
  }
  const answer = attempt.statusCode === null ? 'no answer' : `HTTP ${attempt.statusCode}`;
  return `${answer}, ${attempt.durationMs} ms${attempt.error ? `: ${attempt.error}` : ''}`;
};

/** One endpoint: where it sends, what, and its latest deliveries; a test event on demand. */
const EndpointPage = async ({ params, searchParams }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const { keyId, endpointId } = await params;
  const query = await searchParams;
  const here = `/developers/webhooks/${keyId}/${endpointId}`;
  const [endpoints, deliveries] = await Promise.all([
    listKeyWebhooks(developer.apiKey, keyId),
    listKeyWebhookDeliveries(developer.apiKey, keyId, endpointId),
  ]);
  if (!endpoints.ok) {
    return portalReadFailure(endpoints.failure, here);
  }
  if (!deliveries.ok) {
    return portalReadFailure(deliveries.failure, here);
  }
  const endpoint = endpoints.data.find((each) => each.id === endpointId);
  if (!endpoint) {
    notFound();
  }
  const testFailed =
    typeof query['test-failed'] === 'string' ? query['test-failed'].slice(0, 200) : undefined;
  return (
    <>
      <BackLink href="/developers/webhooks">Webhooks</BackLink>
      <div className="page-intro">
        <h1 className="page-title">Webhook endpoint</h1>
        <p className="lead">{endpoint.url}</p>
      </div>
      <dl className="portal-facts">
        <dt>Events</dt>
        <dd>{eventsInWords(endpoint.events)}</dd>
        <dt>Status</dt>
        <dd>
          {endpoint.status === 'enabled' ? 'Sending' : `Disabled: ${endpoint.disabledReason ?? ''}`}
        </dd>
        {endpoint.description ? (
          <>
            <dt>Note</dt>
            <dd>{endpoint.description}</dd>
          </>
        ) : null}
        <dt>Added</dt>
        <dd>
          <StoreTime at={endpoint.createdAt} />
        </dd>
      </dl>
      {query.tested !== undefined ? (
        <p className="notice" role="status">
          A test event is on its way: it shows below once your endpoint answers.
        </p>
      ) : null}
      {testFailed !== undefined ? (
        <FormError>We couldn't send a test event: {testFailed}</FormError>
      ) : null}
      <form action={sendTestEvent} className="form__actions">
        <input type="hidden" name="keyId" value={keyId} />
        <input type="hidden" name="endpointId" value={endpointId} />
        <button type="submit" className="button">
          Send a test event
        </button>
      </form>
      <h2>Latest deliveries</h2>
      {deliveries.data.length === 0 ? (
        <p className="notice">Nothing sent yet.</p>
      ) : (
        <TableScroll label="Latest deliveries">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Event</th>
                <th scope="col">Result</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <StoreTime at={delivery.createdAt} />
                  </td>
                  <td>
                    <code>{delivery.eventType}</code>
                  </td>
                  <td>{STATUS_WORDS[delivery.status]}</td>
                  <td>{delivery.attempts.length}</td>
                  <td>{lastAttempt(delivery)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
};

export default EndpointPage;
