import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { requireDeveloper } from '@/lib/session';
import { Unverified } from '../../../unverified';
import { keyOfPage } from '../key-of';
import { RevokeForm } from './revoke-form';

export const metadata: Metadata = { title: 'Revoke a key' };

type TProps = { params: Promise<{ id: string }> };

/** Confirms a revocation: a page of its own, so it works without JavaScript. */
const RevokePage = async ({ params }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const { id } = await params;
  const found = await keyOfPage(developer, id, `/developers/keys/${id}/revoke`);
  if (!found.key) {
    return found.failure;
  }
  const { key } = found;
  return (
    <div className="narrow">
      <BackLink href="/developers/keys">Your keys</BackLink>
      <PageIntro title={`Revoke “${key.name}”?`}>
        Requests with this key ({key.start}…), and with an older secret of a roll, are refused
        within seconds. This cannot be undone: a revoked key stays in the list as revoked.
      </PageIntro>
      <RevokeForm keyId={key.id} />
    </div>
  );
};

export default RevokePage;
