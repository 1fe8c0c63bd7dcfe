import { randomUUID } from 'node:crypto';
import { Heart } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { AdoptForm } from '@/components/adopt-form';
import { ApiFailure } from '@/components/api-failure';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { StatePanel } from '@/components/state-panel';
import { StoreVisit } from '@/components/store-visit';
import { findPetFresh } from '@/lib/api';
import { parsePetId, petHref } from '@/lib/pet-links';
import { applyToAdopt } from './actions';

type TProps = { params: Promise<{ id: string }> };

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => {
  const petId = parsePetId((await params).id);
  const pet = petId === undefined ? undefined : await findPetFresh(petId);
  return { title: pet?.ok ? `Apply to adopt ${pet.data.name}` : 'Apply to adopt' };
};

/**
 * The apply form of an available animal. Each rendering carries a new random token, sent as the
 * order's Idempotency-Key: sending this form twice is one application. An animal that is no
 * longer available gets a kind word and a way on instead of the form.
 */
const ApplyPage = async ({ params }: TProps) => {
  await connection(); // rendered per request: it reads the API, and each form needs its own token
  const petId = parsePetId((await params).id);
  if (petId === undefined) {
    notFound();
  }
  const pet = await findPetFresh(petId);
  if (!pet.ok && (pet.failure.kind === 'not-found' || pet.failure.kind === 'invalid')) {
    notFound();
  }
  const backLink = <BackLink href={petHref(petId)}>Back to the animal</BackLink>;
  if (!pet.ok) {
    return (
      <div className="narrow">
        {backLink}
        <ApiFailure failure={pet.failure} retryHref={`${petHref(petId)}/apply`} headingLevel={1} />
      </div>
    );
  }
  const { name, status } = pet.data;
  if (status !== 'available') {
    return (
      <div className="narrow">
        {backLink}
        <StatePanel
          icon={Heart}
          headingLevel={1}
          title={
            status === 'pending' ? `${name} is already spoken for` : `${name} has found a home`
          }
          actions={
            <Link href="/?status=available" className="button">
              See who is still looking
            </Link>
          }
        >
          <p>
            {status === 'pending'
              ? `The store has approved an adopter for ${name} and is arranging the adoption. If it falls through, ${name} will be available again.`
              : `${name} has been adopted, so there is nothing to apply for. Many others are still waiting for a home.`}
          </p>
        </StatePanel>
      </div>
    );
  }
  return (
    <div className="narrow">
      {backLink}
      <PageIntro title={<>Apply to adopt {name}</>}>
        Tell us who you are and how to reach you. The store reads every application and gets back to
        you; nothing is final until you have met {name}.{' '}
        <Link href="/how-adoption-works">How adoption works</Link>: the steps, the fee and what to
        bring.
      </PageIntro>
      <AdoptForm
        petId={petId}
        petName={name}
        token={randomUUID()}
        action={applyToAdopt.bind(null, petId)}
      />
      <StoreVisit heading="Rather come by?" />
    </div>
  );
};

export default ApplyPage;
