import type { TPetPhoto } from '@pets/contract/schemas';
import { PHOTO_SIZES, photoView } from '@/lib/photo-view';
import { CategoryVisual } from './category-visual';
import { PhotoImage } from './photo-image';

type TProps = {
  photo: TPetPhoto | undefined;
  categoryName: string | undefined;
  size: 'card' | 'hero';
  /** The photo's text alternative; the category drawing is decorative. */
  alt: string;
  /** The first photo of the page's main content: fetched early, not lazily. */
  isPriority?: boolean;
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
  return (
    <div className={`visual visual--photo visual--${size}`}>
      <PhotoImage
        view={view}
        sizes={PHOTO_SIZES[size]}
        alt={alt}
        loading={isPriority ? 'eager' : 'lazy'}
        fetchPriority={isPriority ? 'high' : undefined}
        decoding="async"
        className="visual__photo"
      />
    </div>
  );
};
