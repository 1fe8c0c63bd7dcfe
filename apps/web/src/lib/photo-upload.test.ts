import { PHOTO_MAX_BYTES } from '@pets/contract/rules';
import { describe, expect, it } from 'vitest';
import {
  checkPhotoFile,
  movedOrder,
  parsePhotoNotice,
  parsePhotoProblem,
  photoProblemOf,
  uploadErrorMessage,
} from './photo-upload';

const file = (size: number, type: string) => new File([new Uint8Array(size)], 'pic', { type });

describe('checkPhotoFile', () => {
  it('lets a JPEG, PNG or WebP within the limit through', () => {
    expect(checkPhotoFile(file(1000, 'image/jpeg'))).toBeUndefined();
    expect(checkPhotoFile(file(PHOTO_MAX_BYTES, 'image/webp'))).toBeUndefined();
    // No declared type: the API tells the type from the bytes.
    expect(checkPhotoFile(file(10, ''))).toBeUndefined();
  });

  it('asks for a photo when none was chosen (an empty file field sends an empty file)', () => {
    expect(checkPhotoFile(null)).toBe('Choose a photo to upload.');
    expect(checkPhotoFile('text')).toBe('Choose a photo to upload.');
    expect(checkPhotoFile(file(0, 'application/octet-stream'))).toBe('Choose a photo to upload.');
  });

  it('refuses a file over the limit or declared as another kind, in words', () => {
    expect(checkPhotoFile(file(PHOTO_MAX_BYTES + 1, 'image/png'))).toBe(
      'This photo is larger than 10 MiB. Choose a smaller one, or make it smaller first.',
    );
    expect(checkPhotoFile(file(10, 'image/gif'))).toBe(
      'Only JPEG, PNG or WebP photos can be uploaded.',
    );
  });
});

describe('uploadErrorMessage', () => {
  it("tells each of the API's refusals in our words, never its code", () => {
    const messages = [
      uploadErrorMessage({
        kind: 'invalid',
        error: { code: 'invalid_image', message: 'x', status: 400 },
      }),
      uploadErrorMessage({ kind: 'refused', status: 413, code: 'payload_too_large' }),
      uploadErrorMessage({ kind: 'refused', status: 413, code: 'image_too_large' }),
      uploadErrorMessage({ kind: 'refused', status: 415, code: 'unsupported_media_type' }),
      uploadErrorMessage({ kind: 'conflict', code: 'photo_limit_reached' }),
      uploadErrorMessage({ kind: 'rate-limited', retryAfterSeconds: 7 }),
      uploadErrorMessage({ kind: 'unavailable' }),
      uploadErrorMessage({ kind: 'failed' }),
    ];
    expect(messages).toEqual([
      'We could not read this file as a picture: it may be damaged. Try saving it again, or choose another photo.',
      'This photo is larger than 10 MiB. Make it smaller and try again.',
      'This photo has more than 40 megapixels. Make it smaller and try again.',
      'This file is not a JPEG, PNG or WebP picture, whatever its name says. Choose a photo in one of those formats.',
      'This animal already has 20 photos, the most it can have. Remove one first.',
      "We're getting a lot of visits. Try again in 7 seconds.",
      "We can't reach our animal records right now, so the photo was not added. Please try again in a minute.",
      'Something went wrong on our side and the photo was not added. Please try again.',
    ]);
    for (const message of messages) {
      expect(message).not.toMatch(/_|\b4\d\d\b/);
    }
  });
});

describe('photo notices and problems in the address', () => {
  it('reads only known ones', () => {
    expect(parsePhotoNotice('added')).toBe('added');
    expect(parsePhotoNotice('<script>')).toBeUndefined();
    expect(parsePhotoProblem('changed')).toBe('changed');
    expect(parsePhotoProblem(['changed'])).toBeUndefined();
  });

  it('maps a failed removal or move to what the page says', () => {
    expect(photoProblemOf({ kind: 'not-found' })).toBe('gone');
    expect(photoProblemOf({ kind: 'conflict', code: 'photo_order_conflict' })).toBe('changed');
    expect(photoProblemOf({ kind: 'rate-limited', retryAfterSeconds: 3 })).toBe('busy');
    expect(photoProblemOf({ kind: 'unavailable' })).toBe('unavailable');
    expect(photoProblemOf({ kind: 'forbidden' })).toBe('failed');
  });
});

describe('movedOrder', () => {
  it('moves a photo one place earlier or later', () => {
    expect(movedOrder([1, 2, 3], 2, 'earlier')).toEqual([2, 1, 3]);
    expect(movedOrder([1, 2, 3], 2, 'later')).toEqual([1, 3, 2]);
    expect(movedOrder([1, 2, 3], 3, 'earlier')).toEqual([1, 3, 2]);
  });

  it('cannot move the first earlier, the last later, or a photo that is not there', () => {
    expect(movedOrder([1, 2, 3], 1, 'earlier')).toBeUndefined();
    expect(movedOrder([1, 2, 3], 3, 'later')).toBeUndefined();
    expect(movedOrder([1, 2, 3], 9, 'later')).toBeUndefined();
  });
});
