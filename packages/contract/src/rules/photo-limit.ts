/**
 * Limits of a photo upload (`addPetPhoto`): the API refuses a larger body before reading it, the
 * image pipeline refuses an image of more pixels before decoding it, and every text that tells a
 * developer about them (the OpenAPI document, the site's form, the 413 messages) prints them from
 * here.
 */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/** The byte limit as people read it: "10 MiB". */
export const PHOTO_MAX_BYTES_TEXT = `${PHOTO_MAX_BYTES / 1024 / 1024} MiB`;

/** Most pixels (width × height) an uploaded image may have: a pixel bomb is refused unread. */
export const PHOTO_MAX_PIXELS = 40_000_000;

/** The pixel limit as people read it: "40 megapixels". */
export const PHOTO_MAX_PIXELS_TEXT = `${PHOTO_MAX_PIXELS / 1_000_000} megapixels`;

/** The image types an upload may be, told from its bytes (never from the declared type). */
export const PHOTO_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type TPhotoMediaType = (typeof PHOTO_MEDIA_TYPES)[number];

/** The field of a `multipart/form-data` upload that carries the image. */
export const PHOTO_FORM_FIELD = 'photo';

/** Widths the API makes of each photo, ascending; a size wider than the original is left out. */
export const PHOTO_WIDTHS = [160, 480, 1200] as const;

/** Most photos one animal may have. */
export const PET_PHOTOS_MAX = 20;
