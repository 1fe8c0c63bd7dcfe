import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { StoreTime } from '@/components/store-time';
import { requireDeveloper } from '@/lib/session';
import { Unverified } from '../../../unverified';
import { keyOfPage } from '../key-of';
import { RollForm } from './roll-form';

export const metadata: Metadata = { title: 'Roll a key' };

type TProps = { params: Promise<{ id: string }> };

/** Confirms a roll: a new secret, shown once; the old one works for the overlap chosen. */
const RollPage = async ({ params }: TProps) => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  const { id } = await params;
  const found = await keyOfPage(developer, id, `/developers/keys/${id}/roll`);
  if (!found.key) {
    return found.failure;
  }
  const { key } = found;
  return (
    <div className="narrow">
      <BackLink href="/developers/keys">Your keys</BackLink>
      <PageIntro title={`Roll “${key.name}”`}>
        The key gets a new secret, shown once. Your app keeps working with the old secret for as
        long as you choose here, so you can deploy the new one first.
      </PageIntro>
      {key.previousSecretExpiresAt ? (
        <p className="notice">
          A roll is running already: its older secret works until{' '}
          <StoreTime at={key.previousSecretExpiresAt} />. Rolling again ends that older secret at
          once.
        </p>
      ) : null}
      <RollForm keyId={key.id} keyStart={key.start} />
    </div>
  );
};

export default RollPage;
