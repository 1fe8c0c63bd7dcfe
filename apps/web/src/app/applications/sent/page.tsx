import { CircleCheck } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { StoreVisit } from '@/components/store-visit';
import { storeConfig } from '@/env';
import { findPet } from '@/lib/api';
import { formatReference, parseReference } from '@/lib/application-reference';
import { parsePetId } from '@/lib/pet-links';

export const metadata: Metadata = { title: 'Application sent' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Where a sent application lands: its reference, what happens next and where to follow it. It
 * shows only what its address carries (the reference, the animal's public name), never the
 * application itself: that takes the email too, on the status page.
 */
const SentPage = async ({ searchParams }: TProps) => {
  await connection(); // rendered per request: it reads the API and the store's configuration
  const search = await searchParams;
  const orderId = parseReference(first(search.reference) ?? '');
  if (orderId === undefined) {
    notFound();
  }
  const reference = formatReference(orderId);
  const petId = parsePetId(first(search.pet) ?? '');
  const pet = petId === undefined ? undefined : await findPet(petId);
  const animal = pet?.ok ? pet.data.name : undefined;
  const { replyDays } = storeConfig();
  return (
    <div className="narrow">
      <div className="page-intro">
        <p className="notice" role="status">
          <CircleCheck aria-hidden="true" focusable="false" className="notice__icon" />
          Your application has been sent.
        </p>
        <h1 className="page-title">
          Thank you{animal ? ` for applying to adopt ${animal}` : ' for applying'}
        </h1>
        <p className="lead">Your application&apos;s reference is</p>
        <p className="reference">{reference}</p>
      </div>
      <section className="panel" aria-labelledby="next-title">
        <h2 id="next-title" className="panel__title">
          What happens next
        </h2>
        <ol className="steps">
          <li className="steps__item">
            <span>
              The store reads your application and contacts you within {replyDays} working{' '}
              {replyDays === 1 ? 'day' : 'days'}, by email or by phone if you gave one.
            </span>
          </li>
          <li className="steps__item">
            <span>
              You come and meet {animal ?? 'the animal'}. Bring your reference, {reference}.
            </span>
          </li>
          <li className="steps__item">
            <span>
              If it is a good match, the store approves the adoption and agrees the day with you.
            </span>
          </li>
        </ol>
        <p className="pet__actions">
          <Link
            href={`/applications/status?${new URLSearchParams({ reference })}`}
            className="button"
          >
            Follow your application
          </Link>
        </p>
        <p className="field__hint">
          You will need the reference and the email address you applied with.
        </p>
      </section>
      <StoreVisit heading="Visit the store" />
    </div>
  );
};

export default SentPage;
