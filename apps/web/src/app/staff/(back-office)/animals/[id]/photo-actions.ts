'use server';

import { redirect } from 'next/navigation';
import {
  checkPhotoFile,
  movedOrder,
  photoProblemOf,
  type TPhotoNotice,
  type TPhotoProblem,
  uploadErrorMessage,
} from '@/lib/photo-upload';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from '@/lib/session';
import {
  addPetPhotoAsStaff,
  deletePetPhotoAsStaff,
  reorderPetPhotosAsStaff,
} from '@/lib/staff-api';

/**
 * The photos of an animal (staff only), each a server action behind a plain form, so all of it
 * works without JavaScript: the file goes from the browser to this server, and from here to the
 * API with the staff member's key (the browser never holds it). Next.js accepts bodies up to the
 * API's photo limit for these actions (next.config.ts). After a change the page reloads with a
 * notice in its address; a refused upload stays on the form with the reason in our words.
 */

export type TPhotoUploadState = { error?: string };

const photosHref = (petId: number, outcome: { photo?: TPhotoNotice; problem?: TPhotoProblem }) => {
  const params = new URLSearchParams();
  if (outcome.photo) {
    params.set('photo', outcome.photo);
  }
  if (outcome.problem) {
    params.set('problem', outcome.problem);
  }
  return `/staff/animals/${petId}?${params}#photos`;
};

/**
 * Bound arguments travel through the page, so a tampered form could change them: ids must be ids
 * (the API decides the rest, with the staff member's own rights).
 */
const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

const requireKey = async (): Promise<string> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  return apiKey;
};

/** Adds the chosen photo; the page's one-time token makes a form sent twice one photo. */
export const uploadPhoto = async (
  petId: number,
  idempotencyKey: string,
  _previous: TPhotoUploadState,
  data: FormData,
): Promise<TPhotoUploadState> => {
  const apiKey = await requireKey();
  if (!isId(petId) || typeof idempotencyKey !== 'string' || idempotencyKey.length > 100) {
    return {
      error:
        'Something went wrong on our side and the photo was not added. Please reload the page.',
    };
  }
  const photo = data.get('photo');
  const problem = checkPhotoFile(photo);
  if (problem !== undefined || !(photo instanceof Blob)) {
    return { error: problem ?? 'Choose a photo to upload.' };
  }
  const result = await addPetPhotoAsStaff(apiKey, petId, photo, idempotencyKey);
  if (result.ok) {
    redirect(photosHref(petId, { photo: 'added' }));
  }
  if (result.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  return { error: uploadErrorMessage(result.failure) };
};

export const removePhoto = async (petId: number, photoId: number): Promise<void> => {
  const apiKey = await requireKey();
  if (!isId(petId) || !isId(photoId)) {
    redirect('/staff/animals');
  }
  const result = await deletePetPhotoAsStaff(apiKey, petId, photoId);
  if (!result.ok && result.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  redirect(
    photosHref(
      petId,
      result.ok ? { photo: 'removed' } : { problem: photoProblemOf(result.failure) },
    ),
  );
};

/**
 * Moves a photo one place; `shownOrder` is the order the page showed. If the photos changed since,
 * the API refuses the order (409) and the page shows them as they are now.
 */
export const movePhoto = async (
  petId: number,
  shownOrder: number[],
  photoId: number,
  direction: 'earlier' | 'later',
): Promise<void> => {
  const apiKey = await requireKey();
  if (!isId(petId)) {
    redirect('/staff/animals');
  }
  const isOrder = Array.isArray(shownOrder) && shownOrder.every(isId);
  const order =
    isOrder && isId(photoId) && (direction === 'earlier' || direction === 'later')
      ? movedOrder(shownOrder, photoId, direction)
      : undefined;
  if (!order) {
    redirect(photosHref(petId, { problem: 'changed' }));
  }
  const result = await reorderPetPhotosAsStaff(apiKey, petId, order);
  if (!result.ok && result.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  redirect(
    photosHref(petId, result.ok ? { photo: 'moved' } : { problem: photoProblemOf(result.failure) }),
  );
};
