import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { PET_PHOTOS_MAX, PHOTO_MAX_PIXELS, PHOTO_WIDTHS } from '../rules/photo-limit';
import { idField, idFromText } from './common';

/** Longest photo address the API gives out: `MEDIA_BASE_URL` (at most 1024) and a file key. */
export const PHOTO_URL_MAX_LENGTH = 2048;

/** A ThumbHash is at most 25 bytes: 36 characters of base64. */
export const PHOTO_PLACEHOLDER_MAX_LENGTH = 48;

const pixels = (description: string) =>
  extendApi(z.number().int().min(1).max(PHOTO_MAX_PIXELS), { format: 'int32', description });

export const ZPetPhotoSize = extendApi(
  z.object({
    width: pixels('Width of this file, in pixels.'),
    height: pixels('Height of this file, in pixels.'),
    url: extendApi(z.string().url().max(PHOTO_URL_MAX_LENGTH), {
      format: 'uri',
      description:
        'Absolute address of the file (WebP, no metadata). Its name holds a hash of its content, ' +
        'so it never changes: cache it as long as you like.',
    }),
  }),
  {
    title: 'PetPhotoSize',
    example: {
      width: 480,
      height: 360,
      url: 'https://media.pet-adoption.dev/pets/42/3f9a1c0e7b2d4a6f-480.webp',
    },
  },
);
export type TPetPhotoSize = z.infer<typeof ZPetPhotoSize>;

export const ZPetPhoto = extendApi(
  z.object({
    id: idField('Unique identifier of the photo, assigned by the service on upload.'),
    width: pixels('Width of the largest size, in pixels.'),
    height: pixels('Height of the largest size, in pixels.'),
    placeholder: extendApi(z.string().max(PHOTO_PLACEHOLDER_MAX_LENGTH), {
      description:
        'A ThumbHash (https://evanw.github.io/thumbhash/) of the photo, base64-encoded: decode it ' +
        'into a tiny blurred image to show, at the size of the photo, while the photo loads.',
      pattern: '^[A-Za-z0-9+/]+={0,2}$',
    }),
    sizes: extendApi(z.array(ZPetPhotoSize).min(1).max(PHOTO_WIDTHS.length), {
      description:
        `The files of the photo, ascending by width (${PHOTO_WIDTHS.join(', ')} pixels wide, ` +
        'never wider than the uploaded image, which may leave only one), each with the aspect ' +
        'ratio of the original: suits `srcset`.',
    }),
  }),
  {
    title: 'PetPhoto',
    example: {
      id: 7,
      width: 1200,
      height: 900,
      placeholder: '1QcSHQRnh493V4dIh4eXh1h4kJUI',
      sizes: [
        {
          width: 160,
          height: 120,
          url: 'https://media.pet-adoption.dev/pets/42/3f9a1c0e7b2d4a6f-160.webp',
        },
        {
          width: 480,
          height: 360,
          url: 'https://media.pet-adoption.dev/pets/42/3f9a1c0e7b2d4a6f-480.webp',
        },
        {
          width: 1200,
          height: 900,
          url: 'https://media.pet-adoption.dev/pets/42/3f9a1c0e7b2d4a6f-1200.webp',
        },
      ],
    },
  },
);
export type TPetPhoto = z.infer<typeof ZPetPhoto>;

export const ZPetPhotos = extendApi(z.array(ZPetPhoto).max(PET_PHOTOS_MAX), {
  title: 'PetPhotos',
  description: `The photos of an animal in their order, the first its main photo; at most ${PET_PHOTOS_MAX}.`,
});
export type TPetPhotos = z.infer<typeof ZPetPhotos>;

/**
 * The body of reorderPetPhotos: every photo of the animal, once, in the new order. Naming all of
 * them (rather than moving one) makes the request idempotent and lets the server refuse an order
 * made from a stale view (`409 photo_order_conflict`).
 */
export const ZPetPhotoOrder = extendApi(
  z
    .object({
      photoIds: extendApi(
        z
          .array(
            idField('ID of a photo of the animal.', {
              notInteger: 'must be an integer',
              notPositive: 'must be a positive integer',
              outOfRange: 'must be a safe integer',
            }),
            { required_error: 'is required', invalid_type_error: 'must be an array of ids' },
          )
          .max(PET_PHOTOS_MAX, `must have at most ${PET_PHOTOS_MAX} ids`)
          .refine((ids) => new Set(ids).size === ids.length, 'must not name a photo twice'),
        {
          description:
            'The ids of every photo of the animal, each once, in the new order (the first ' +
            'becomes the main photo).',
          uniqueItems: true,
        },
      ),
    })
    .strict(),
  { title: 'PetPhotoOrder', example: { photoIds: [9, 7, 8] } },
);
export type TPetPhotoOrder = z.infer<typeof ZPetPhotoOrder>;

export const ZPetPhotoParams = z.object({
  petId: extendApi(idFromText('petId', 'ID of the animal.'), { example: 42 }),
  photoId: extendApi(idFromText('photoId', 'ID of the photo.'), { example: 7 }),
});
export type TPetPhotoParams = z.infer<typeof ZPetPhotoParams>;
