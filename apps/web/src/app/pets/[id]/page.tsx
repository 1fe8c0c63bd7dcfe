import type { TPet } from '@pets/contract/schemas';
import { HandHeart } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { BackLink } from '@/components/back-link';
import { FavouriteButton } from '@/components/favourite-button';
import { PetDetails } from '@/components/pet-details';
import { PetGallery } from '@/components/pet-gallery';
import { PetVisual } from '@/components/pet-visual';
import { ShareButton } from '@/components/share-button';
import { StatusBadge } from '@/components/status-badge';
import { StoreVisit } from '@/components/store-visit';
import { storeConfig } from '@/env';
import { findPet, listCategories } from '@/lib/api';
import { colorsInWords, feeInWords } from '@/lib/pet-details';
import { backToListHref, backToMatchesHref, parsePetId } from '@/lib/pet-links';
import { applicationsInReviewText, profileLine, storyParagraphs } from '@/lib/pet-profile';
import {
  jsonForScript,
  PREVIEW_IMAGE_SIZE,
  petStructuredData,
  shareDescription,
  sharePhoto,
} from '@/lib/pet-share';
import { siteOrigin } from '@/lib/site-url';

type TProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

type TPreview = {
  url: string;
  description: string;
  image: { url: string; width: number; height: number };
};

/** What a shared link to this page shows: its address, words and picture (lib/pet-share.ts). */
const previewOf = async (pet: TPet, categoryName: string | undefined): Promise<TPreview> => {
  const origin = await siteOrigin();
  return {
    url: `${origin}/pets/${pet.id}`,
    description: shareDescription(pet, categoryName, storeConfig().name),
    image: sharePhoto(pet) ?? {
      url: `${origin}/pets/${pet.id}/preview-image`,
      ...PREVIEW_IMAGE_SIZE,
    },
  };
};

const categoryNameOf = async (pet: TPet): Promise<string | undefined> => {
  const categories = await listCategories();
  return categories.ok
    ? categories.data.find((category) => category.id === pet.categoryId)?.name
    : undefined;
};

export const generateMetadata = async ({ params }: TProps): Promise<Metadata> => {
  const petId = parsePetId((await params).id);
  const pet = petId === undefined ? undefined : await findPet(petId);
  if (!pet?.ok) {
    return { title: pet?.failure.kind === 'not-found' ? 'Animal not found' : 'Animal' };
  }
  const title = `Meet ${pet.data.name}`;
  const preview = await previewOf(pet.data, await categoryNameOf(pet.data));
  const image = { ...preview.image, alt: pet.data.name };
  return {
    title,
    description: preview.description,
    alternates: { canonical: preview.url },
    openGraph: {
      type: 'website',
      siteName: storeConfig().name,
      title,
      description: preview.description,
      url: preview.url,
      images: [image],
    },
    twitter: {
      card: 'summary_large_image',
      title,
      description: preview.description,
      images: [image],
    },
  };
};

const PetPage = async ({ params, searchParams }: TProps) => {
  await connection(); // rendered per request: it reads the API
  const [{ id }, search] = await Promise.all([params, searchParams]);
  const petId = parsePetId(id);
  if (petId === undefined) {
    notFound();
  }
  const [pet, categories] = await Promise.all([findPet(petId), listCategories()]);
  if (!pet.ok && (pet.failure.kind === 'not-found' || pet.failure.kind === 'invalid')) {
    notFound();
  }
  const matchesHref = backToMatchesHref(search.match);
  const backLink = matchesHref ? (
    <BackLink href={matchesHref}>Back to your matches</BackLink>
  ) : (
    <BackLink href={backToListHref(search.from)}>Back to the list</BackLink>
  );
  if (!pet.ok) {
    return (
      <>
        {backLink}
        <ApiFailure failure={pet.failure} retryHref={`/pets/${petId}`} headingLevel={1} />
      </>
    );
  }

  const categoryName = categories.ok
    ? categories.data.find((category) => category.id === pet.data.categoryId)?.name
    : undefined;
  const preview = await previewOf(pet.data, categoryName);
  const structuredData = petStructuredData({
    pet: pet.data,
    url: preview.url,
    description: preview.description,
    imageUrl: preview.image.url,
    storeName: storeConfig().name,
  });
  const [mainPhoto, ...morePhotos] = pet.data.photos;
  const profile = profileLine(pet.data, new Date(), storeConfig().timeZone);
  const story = storyParagraphs(pet.data.description);
  const colors = colorsInWords(pet.data.colors);
  return (
    <>
      {backLink}
      <script
        type="application/ld+json"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON, with `<` escaped (jsonForScript); a data block, never run.
        dangerouslySetInnerHTML={{ __html: jsonForScript(structuredData) }}
      />
      <article className="pet">
        <div className="pet__media">
          <PetVisual
            photo={mainPhoto}
            categoryName={categoryName}
            size="hero"
            alt={pet.data.name}
            isPriority="high"
          />
          <PetGallery
            photos={morePhotos}
            name={pet.data.name}
            firstNumber={2}
            total={pet.data.photos.length}
          />
        </div>
        <div className="pet__details">
          <div>
            <h1 className="page-title">{pet.data.name}</h1>
            {profile ? <p className="pet__profile">{profile}</p> : null}
          </div>
          {/* Right under the name, so the one primary action is on the first screen at any width. */}
          {pet.data.applicationsInReview > 0 ? (
            <p className="pet__applications">
              {applicationsInReviewText(pet.data.applicationsInReview)}
            </p>
          ) : null}
          <p className="pet__actions">
            {pet.data.status === 'available' ? (
              <Link href={`/pets/${pet.data.id}/apply`} className="button">
                <HandHeart aria-hidden="true" focusable="false" className="button__icon" />
                Apply to adopt
              </Link>
            ) : null}
            <FavouriteButton petId={pet.data.id} name={pet.data.name} variant="page" />
            <ShareButton title={`Meet ${pet.data.name}`} text={preview.description} />
          </p>
          <p className="pet__note">
            {pet.data.status === 'available'
              ? `Would you like to give ${pet.data.name} a home? Apply online and the store will get back to you, or come and meet ${pet.data.name} with reference #${pet.data.id}.`
              : pet.data.status === 'pending'
                ? `${pet.data.name} is set aside for an adopter the store has approved. If that adoption falls through, ${pet.data.name} will be available again.`
                : `${pet.data.name} has found a home.`}
          </p>
          {story.length > 0 ? (
            <section className="pet__story" aria-label={`About ${pet.data.name}`}>
              {story.map((paragraph, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text, in order, never reordered.
                <p key={index}>{paragraph}</p>
              ))}
            </section>
          ) : null}
          <PetDetails pet={pet.data} />
          <dl className="facts">
            <div className="facts__row">
              <dt>Category</dt>
              <dd>{categoryName ?? 'Other'}</dd>
            </div>
            {pet.data.breed ? (
              <div className="facts__row">
                <dt>Breed</dt>
                <dd>{pet.data.breed}</dd>
              </div>
            ) : null}
            {colors ? (
              <div className="facts__row">
                <dt>Colours</dt>
                <dd>{colors}</dd>
              </div>
            ) : null}
            <div className="facts__row">
              <dt>Adoption fee</dt>
              <dd>{feeInWords(pet.data.adoptionFee)}</dd>
            </div>
            <div className="facts__row">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={pet.data.status} />
              </dd>
            </div>
            <div className="facts__row">
              <dt>Reference</dt>
              <dd>#{pet.data.id}</dd>
            </div>
          </dl>
          <StoreVisit
            heading={pet.data.status === 'available' ? `Meet ${pet.data.name}` : 'Visit the store'}
          />
        </div>
      </article>
    </>
  );
};

export default PetPage;
