import type { TWebhookEndpoint } from '@pets/contract';
import type { TOrgKey } from '@pets/contract/site';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { portalReadFailure } from '@/components/portal-read-failure';
import { StoreTime } from '@/components/store-time';
import { TableScroll } from '@/components/table-scroll';
import { requireDeveloper } from '@/lib/session';
import { listKeyWebhooks, listOrgKeys } from '@/lib/site-api';
import { eventsInWords } from '@/lib/webhook-words';
import { Unverified } from '../unverified';

export const metadata: Metadata = { title: 'Webhooks' };

/** The most keys whose endpoints the page reads at once. */
const KEYS_READ = 50;

/**
 * Every webhook endpoint of the organisation's keys (revoked keys send nothing, so they are left
 * out): where it sends, for which key, which events, and whether it is sending.
 */
const WebhooksPage = async () => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const keys = await listOrgKeys(developer.apiKey);
  if (!keys.ok) {
    return portalReadFailure(keys.failure, '/developers/webhooks');
  }
  const live = keys.data.filter((key) => key.status !== 'revoked').slice(0, KEYS_READ);
  const lists = await Promise.all(live.map((key) => listKeyWebhooks(developer.apiKey, key.id)));
  const rows: { key: TOrgKey; endpoint: TWebhookEndpoint }[] = [];
  for (const [index, list] of lists.entries()) {
    if (!list.ok) {
      return portalReadFailure(list.failure, '/developers/webhooks');
    }
    const key = live[index] as TOrgKey;
    rows.push(...list.data.map((endpoint) => ({ key, endpoint })));
  }
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Webhooks</h1>
        <p className="lead">
          Hear about new animals and changes as they happen: we send each event to your endpoints,
          signed as the Standard Webhooks specification says, and try again for about three days
          when an endpoint does not answer.
        </p>
      </div>
      <p>
        <Link href="/developers/webhooks/new" className="button">
          Add an endpoint
        </Link>
      </p>
      {rows.length === 0 ? (
        <p className="notice">No endpoints yet. Add one to receive events.</p>
      ) : (
        <TableScroll label="Webhook endpoints">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Key</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, endpoint }) => (
                <tr key={endpoint.id}>
                  <th scope="row">
                    <Link href={`/developers/webhooks/${key.id}/${endpoint.id}`}>
                      {endpoint.url}
                    </Link>
                    {endpoint.description ? (
                      <span className="field__hint"> {endpoint.description}</span>
                    ) : null}
                  </th>
                  <td>{key.name}</td>
                  <td>{eventsInWords(endpoint.events)}</td>
                  <td>{endpoint.status === 'enabled' ? 'Sending' : 'Disabled'}</td>
                  <td>
                    <StoreTime at={endpoint.createdAt} />
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

export default WebhooksPage;
