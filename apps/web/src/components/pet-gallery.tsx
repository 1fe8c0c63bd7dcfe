import type { TPetPhoto } from '@pets/contract/schemas';
import { PHOTO_SIZES, photoView } from '@/lib/photo-view';
import { PhotoImage } from './photo-image';

type TProps = {
  photos: TPetPhoto[];
  name: string;
  /** The number of the first photo here among all of the animal's (the main one is 1). */
  firstNumber: number;
  total: number;
};

/**
 * The animal's other photos, small, each a link to its largest file: every photo can be seen in
 * full without JavaScript. Each box is reserved by the photo's width and height, its ThumbHash
 * painted until it loads.
 */
export const PetGallery = ({ photos, name, firstNumber, total }: TProps) => {
  if (photos.length === 0) {
    return null;
  }
  return (
    <ul className="gallery" aria-label={`More photos of ${name}`}>
      {photos.map((photo, index) => {
        const view = photoView(photo, 480);
        const label = `${name}, photo ${firstNumber + index} of ${total}`;
        return (
          <li key={photo.id} className="gallery__item">
            <a href={view.largestUrl} className="gallery__link">
              <PhotoImage
                view={view}
                sizes={PHOTO_SIZES.thumbnail}
                alt={label}
                loading="lazy"
                decoding="async"
                className="gallery__photo"
              />
            </a>
          </li>
        );
      })}
    </ul>
  );
};
