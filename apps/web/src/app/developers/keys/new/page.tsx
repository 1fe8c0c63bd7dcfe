import type { Metadata } from 'next';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { requireDeveloper } from '@/lib/session';
import { Unverified } from '../../unverified';
import { CreateKeyForm } from './create-key-form';

export const metadata: Metadata = { title: 'Create a key' };

/** A new key: its name, test or live, read-only, an optional expiry. Shown once when created. */
const NewKeyPage = async () => {
  await connection();
  const developer = await requireDeveloper();
  if (!developer.emailVerified) {
    return <Unverified email={developer.email} />;
  }
  return (
    <div className="narrow">
      <BackLink href="/developers/keys">Your keys</BackLink>
      <PageIntro title="Create a key">
        Start with a test key: it reads everything and cannot change a live store.
      </PageIntro>
      <CreateKeyForm today={new Date().toISOString().slice(0, 10)} />
    </div>
  );
};

export default NewKeyPage;
