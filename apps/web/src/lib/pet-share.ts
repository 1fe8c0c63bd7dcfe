import type { TPet } from '@pets/contract/schemas';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS, storyParagraphs } from './pet-profile';

/**
 * How an animal looks when its page is shared: the preview's description and picture (Open Graph,
 * Twitter cards) and the page's schema.org data. Pure, so the words are tested without a browser.
 */

/** Longest description a preview shows whole (Open Graph has no limit; cards cut at ~200). */
export const SHARE_DESCRIPTION_MAX = 200;

/** Preview pictures: 1200 × 630, the size every network draws large. */
export const PREVIEW_IMAGE_SIZE = { width: 1200, height: 630 } as const;

const firstSentence = (text: string): string => {
  const match = /^.+?[.!?](?=\s|$)/s.exec(text);
  return (match?.[0] ?? text).replace(/\s+/g, ' ').trim();
};

const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;

type TShared = Pick<TPet, 'name' | 'age' | 'sex' | 'size' | 'status' | 'description'>;

/**
 * "Young female medium dog looking for a home at Kindred Paws. Biscuit loves long walks." The
 * known facts in one phrase, where the animal stands, and the story's first sentence.
 */
export const shareDescription = (
  pet: TShared,
  categoryName: string | undefined,
  storeName: string,
): string => {
  const kind = (categoryName ?? 'animal').toLowerCase().replace(/s$/, '');
  const facts = [
    pet.age ? AGE_LABELS[pet.age] : undefined,
    pet.sex && pet.sex !== 'unknown' ? SEX_LABELS[pet.sex].toLowerCase() : undefined,
    pet.size ? SIZE_LABELS[pet.size].toLowerCase() : undefined,
    kind,
  ].filter((part): part is string => part !== undefined);
  const phrase = facts.join(' ');
  const who = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}`;
  const where =
    pet.status === 'available'
      ? `looking for a home at ${storeName}.`
      : pet.status === 'pending'
        ? `set aside for an adopter at ${storeName}.`
        : `adopted from ${storeName}.`;
  const [story] = storyParagraphs(pet.description);
  return clip(
    story ? `${who} ${where} ${firstSentence(story)}` : `${who} ${where}`,
    SHARE_DESCRIPTION_MAX,
  );
};

/** The photo file a preview uses: the widest up to 1200 px, else the smallest there is. */
export const sharePhoto = (
  pet: Pick<TPet, 'photos'>,
): { url: string; width: number; height: number } | undefined => {
  const sizes = [...(pet.photos[0]?.sizes ?? [])].sort((a, b) => a.width - b.width);
  const fitting = sizes.filter((size) => size.width <= PREVIEW_IMAGE_SIZE.width).at(-1);
  return fitting ?? sizes[0];
};

/**
 * The page's schema.org data: a web page about the animal, published by the store (an
 * AnimalShelter). schema.org has no type for an animal in care, so the animal is a Thing with
 * its name, picture and description; Product/Offer would tell search engines it is for sale.
 */
export const petStructuredData = (input: {
  pet: Pick<TPet, 'id' | 'name'>;
  url: string;
  description: string;
  imageUrl: string;
  storeName: string;
}) => ({
  '@context': 'https://schema.org',
  '@type': 'WebPage',
  name: `Meet ${input.pet.name}`,
  url: input.url,
  description: input.description,
  primaryImageOfPage: { '@type': 'ImageObject', url: input.imageUrl },
  mainEntity: {
    '@type': 'Thing',
    name: input.pet.name,
    identifier: String(input.pet.id),
    description: input.description,
    image: input.imageUrl,
  },
  publisher: { '@type': 'AnimalShelter', name: input.storeName },
});

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no text can end the tag. */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c');
