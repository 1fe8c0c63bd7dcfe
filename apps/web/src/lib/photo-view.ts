import type { TPetPhoto } from '@pets/contract/schemas';
import { thumbHashToDataURL } from 'thumbhash';

/**
 * A photo as an <img> needs it: `srcset` from the photo's sizes (the API makes 160, 480 and
 * 1200 px wide files, never wider than the upload), `src` for browsers without `srcset`, the
 * width and height of the largest file (so the browser reserves the box before a byte arrives),
 * and the ThumbHash placeholder decoded here, on the server, into a tiny PNG data URL that the
 * page paints as the image's background until the photo covers it.
 */
export type TPhotoView = {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  /** `data:image/png;base64,...`, or undefined when the placeholder cannot be read. */
  placeholderUrl?: string;
  /** The largest file, for "open the full photo". */
  largestUrl: string;
};

/** The largest placeholder we decode: a ThumbHash is at most 25 bytes. */
const MAX_PLACEHOLDER_BYTES = 64;

/** The ThumbHash (base64) as a data URL; undefined for anything that is not one. */
export const placeholderDataUrl = (placeholder: string): string | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(placeholder)) {
    return undefined;
  }
  const bytes = Uint8Array.from(Buffer.from(placeholder, 'base64'));
  if (bytes.length < 5 || bytes.length > MAX_PLACEHOLDER_BYTES) {
    return undefined;
  }
  try {
    return thumbHashToDataURL(bytes);
  } catch {
    return undefined;
  }
};

/**
 * The view of a photo. `preferredWidth` picks `src` (the smallest file at least that wide, else the
 * largest): what a browser ignoring `srcset` loads.
 */
export const photoView = (photo: TPetPhoto, preferredWidth: number): TPhotoView => {
  const sizes = [...photo.sizes].sort((a, b) => a.width - b.width);
  const largest = sizes.at(-1);
  const preferred = sizes.find((size) => size.width >= preferredWidth) ?? largest;
  return {
    src: preferred?.url ?? '',
    srcSet: sizes.map((size) => `${size.url} ${size.width}w`).join(', '),
    width: largest?.width ?? photo.width,
    height: largest?.height ?? photo.height,
    placeholderUrl: placeholderDataUrl(photo.placeholder),
    largestUrl: largest?.url ?? '',
  };
};

/**
 * `sizes` of each place a photo is shown, matching globals.css: the grid has four columns on a
 * desktop (72rem wide at most), three up to 64rem, two up to 48rem, one up to 36rem; the animal
 * page's photo takes two fifths of 72rem, or the whole width up to 48rem.
 */
export const PHOTO_SIZES = {
  card: '(max-width: 36rem) calc(100vw - 2rem), (max-width: 48rem) 50vw, (max-width: 64rem) 33vw, 17rem',
  hero: '(max-width: 48rem) calc(100vw - 3rem), 27rem',
  thumbnail: '8rem',
} as const;
