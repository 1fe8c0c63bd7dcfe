import {
  ALL_EVENT_TYPES,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  ZEventType,
} from '@pets/contract';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { portalReadFailure } from '@/components/portal-read-failure';
import { requireDeveloper } from '@/lib/session';
import { listOrgKeys } from '@/lib/site-api';
import { Unverified } from '../../unverified';
import { EndpointForm } from './endpoint-form';

export const metadata: Metadata = { title: 'Add a webhook endpoint' };

/**
 * A new endpoint for one of the organisation's active keys that may write: its address, the
 * events it wants, a note. Its signing secret is shown once, in the answer.
 */
const NewEndpointPage = async () => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const keys = await listOrgKeys(developer.apiKey);
  if (!keys.ok) {
    return portalReadFailure(keys.failure, '/developers/webhooks/new');
  }
  const writable = keys.data
    .filter((key) => key.status === 'active' && !key.readOnly)
    .map(({ id, name, start }) => ({ id, name, start }));
  return (
    <div className="narrow">
      <BackLink href="/developers/webhooks">Webhooks</BackLink>
      <PageIntro title="Add a webhook endpoint">
        An endpoint belongs to one of your keys and receives the events that key may read.
      </PageIntro>
      {writable.length === 0 ? (
        <p className="notice">
          An endpoint needs an active key that may write.{' '}
          <a href="/developers/keys/new">Create one</a> first.
        </p>
      ) : (
        <EndpointForm
          keys={writable}
          eventTypes={ZEventType.options}
          every={ALL_EVENT_TYPES}
          maxLengths={{ url: WEBHOOK_URL_MAX_LENGTH, description: WEBHOOK_DESCRIPTION_MAX_LENGTH }}
        />
      )}
    </div>
  );
};

export default NewEndpointPage;
