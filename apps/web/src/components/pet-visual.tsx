import type { TPetPhoto } from '@pets/contract/schemas';
import { preload } from 'react-dom';
import { PHOTO_SIZES, photoView } from '@/lib/photo-view';
import { CategoryVisual } from './category-visual';
import { PhotoImage } from './photo-image';

type TProps = {
  photo: TPetPhoto | undefined;
  categoryName: string | undefined;
  size: 'card' | 'hero';
  /** The photo's text alternative; the category drawing is decorative. */
  alt: string;
  /**
   * A photo of the first screen: fetched at once, not lazily. `high` for the one that is most
   * likely the page's largest paint (the first card, the animal's photo): announced in the
   * document's head and fetched before the other images, which otherwise share the bandwidth of a
   * phone's connection with it.
   */
  isPriority?: boolean | 'high';
};

/**
 * An animal's visual: its first photo, or its category's drawing. The photo's box is reserved
 * before it loads (the tile's aspect ratio on a card, the photo's own width and height on the
 * animal page), and its ThumbHash, decoded on the server, is painted underneath until the photo
 * covers it: nothing moves when it arrives.
 */
export const PetVisual = ({ photo, categoryName, size, alt, isPriority = false }: TProps) => {
  if (!photo) {
    return <CategoryVisual categoryName={categoryName} size={size} />;
  }
  const view = photoView(photo, size === 'card' ? 480 : 1200);
  if (isPriority === 'high') {
    preload(view.src, {
      as: 'image',
      imageSrcSet: view.srcSet,
      imageSizes: PHOTO_SIZES[size],
      fetchPriority: 'high',
    });
  }
  return (
    <div className={`visual visual--photo visual--${size}`}>
      <PhotoImage
        view={view}
        sizes={PHOTO_SIZES[size]}
        alt={alt}
        loading={isPriority ? 'eager' : 'lazy'}
        fetchPriority={isPriority === 'high' ? 'high' : undefined}
        decoding="async"
        className="visual__photo"
      />
    </div>
  );
};
