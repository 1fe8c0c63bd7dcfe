import {
  PET_PHOTOS_MAX,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_BYTES_TEXT,
  PHOTO_MAX_PIXELS_TEXT,
  PHOTO_MEDIA_TYPES,
} from '@pets/contract/rules';
import { rateLimitedMessage } from './messages';
import type { TStaffFailure } from './staff-api';

/**
 * The staff's photo work in words, shared by the browser (a first check of the chosen file, before
 * it is sent) and the server actions (the same check, then the API's answer as a sentence). The
 * limits are the contract's: the API checks them again, from the bytes.
 */

/** The file picker's `accept`: what the API takes. */
export const PHOTO_ACCEPT = PHOTO_MEDIA_TYPES.join(',');

export const PHOTO_TYPES_TEXT = 'JPEG, PNG or WebP';

export const PHOTO_LIMITS_TEXT = `${PHOTO_TYPES_TEXT}, up to ${PHOTO_MAX_BYTES_TEXT}`;

type TFileLike = { size: number; type: string; name?: string };

const isFileLike = (value: unknown): value is TFileLike =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TFileLike).size === 'number' &&
  typeof (value as TFileLike).type === 'string';

/**
 * A first look at the chosen file: none chosen, too large, or declared as another kind. The
 * declared type is only a hint for a quick answer: an empty one (some systems send none) goes on,
 * and the API tells the real type from the bytes.
 */
export const checkPhotoFile = (file: unknown): string | undefined => {
  if (!isFileLike(file) || file.size === 0) {
    return 'Choose a photo to upload.';
  }
  if (file.size > PHOTO_MAX_BYTES) {
    return `This photo is larger than ${PHOTO_MAX_BYTES_TEXT}. Choose a smaller one, or make it smaller first.`;
  }
  if (file.type !== '' && !PHOTO_MEDIA_TYPES.some((type) => type === file.type)) {
    return `Only ${PHOTO_TYPES_TEXT} photos can be uploaded.`;
  }
  return undefined;
};

/** What went wrong with a photo operation, in the terms of the staff API (lib/staff-api.ts). */
export type TPhotoFailure = TStaffFailure;

/** The API's refusal of an upload, as the staff member is told it. */
export const uploadErrorMessage = (failure: TPhotoFailure): string => {
  switch (failure.kind) {
    case 'invalid':
      return failure.error.code === 'invalid_image'
        ? 'We could not read this file as a picture: it may be damaged. Try saving it again, or choose another photo.'
        : `This upload was not accepted. Choose one ${PHOTO_TYPES_TEXT} photo and try again.`;
    case 'refused':
      if (failure.status === 415) {
        return `This file is not a ${PHOTO_TYPES_TEXT} picture, whatever its name says. Choose a photo in one of those formats.`;
      }
      return failure.code === 'image_too_large'
        ? `This photo has more than ${PHOTO_MAX_PIXELS_TEXT}. Make it smaller and try again.`
        : `This photo is larger than ${PHOTO_MAX_BYTES_TEXT}. Make it smaller and try again.`;
    case 'conflict':
      return failure.code === 'photo_limit_reached'
        ? `This animal already has ${PET_PHOTOS_MAX} photos, the most it can have. Remove one first.`
        : 'This photo is still being uploaded. Wait a moment, then reload the page.';
    case 'not-found':
      return 'This animal is no longer in our records.';
    case 'forbidden':
      return 'Your key may not change photos. Ask whoever manages the keys.';
    case 'rate-limited':
      return rateLimitedMessage(failure.retryAfterSeconds);
    case 'unavailable':
      return "We can't reach our animal records right now, so the photo was not added. Please try again in a minute.";
    default:
      return 'Something went wrong on our side and the photo was not added. Please try again.';
  }
};

/** Outcomes of removing or moving a photo, carried in the page's address after the redirect. */
export const PHOTO_NOTICES = {
  added: 'Photo added.',
  removed: 'Photo removed.',
  moved: 'Photo order saved.',
} as const;
export type TPhotoNotice = keyof typeof PHOTO_NOTICES;

export const PHOTO_PROBLEMS = {
  gone: 'That photo was already removed.',
  changed:
    'The photos changed while you were looking (someone else may be editing them). Here they are as they are now: please try again.',
  busy: "We're getting a lot of visits. Please try again in a minute.",
  unavailable: "We can't reach our animal records right now, so nothing changed. Please try again.",
  failed: 'Something went wrong on our side and nothing changed. Please try again.',
} as const;
export type TPhotoProblem = keyof typeof PHOTO_PROBLEMS;

/** The problem to show after a failed removal or move. */
export const photoProblemOf = (failure: TPhotoFailure): TPhotoProblem => {
  switch (failure.kind) {
    case 'not-found':
      return 'gone';
    case 'conflict':
    case 'invalid':
      return 'changed';
    case 'rate-limited':
      return 'busy';
    case 'unavailable':
      return 'unavailable';
    default:
      return 'failed';
  }
};

const pickKey = <T extends string>(keys: readonly T[], value: unknown): T | undefined =>
  keys.find((key) => key === value);

export const parsePhotoNotice = (value: unknown): TPhotoNotice | undefined =>
  pickKey(Object.keys(PHOTO_NOTICES) as TPhotoNotice[], value);

export const parsePhotoProblem = (value: unknown): TPhotoProblem | undefined =>
  pickKey(Object.keys(PHOTO_PROBLEMS) as TPhotoProblem[], value);

/**
 * The order after moving one photo a place earlier or later; undefined when it cannot move (not
 * there, or already first or last).
 */
export const movedOrder = (
  photoIds: readonly number[],
  photoId: number,
  direction: 'earlier' | 'later',
): number[] | undefined => {
  const from = photoIds.indexOf(photoId);
  const to = direction === 'earlier' ? from - 1 : from + 1;
  if (from === -1 || to < 0 || to >= photoIds.length) {
    return undefined;
  }
  const order = [...photoIds];
  order.splice(from, 1);
  order.splice(to, 0, photoId);
  return order;
};
