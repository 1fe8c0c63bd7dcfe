import { PET_PHOTOS_MAX } from '@pets/contract/rules';
import type { TPetPhoto } from '@pets/contract/schemas';
import { ArrowDown, ArrowUp, CircleAlert, Trash2 } from 'lucide-react';
import { PhotoImage } from '@/components/photo-image';
import { PhotoUploadForm } from '@/components/photo-upload-form';
import {
  PHOTO_NOTICES,
  PHOTO_PROBLEMS,
  type TPhotoNotice,
  type TPhotoProblem,
} from '@/lib/photo-upload';
import { photoView } from '@/lib/photo-view';
import { movePhoto, removePhoto, uploadPhoto } from './photo-actions';

type TProps = {
  petId: number;
  name: string;
  photos: TPetPhoto[];
  /** This rendering's one-time token: the upload's Idempotency-Key. */
  uploadToken: string;
  notice?: TPhotoNotice;
  problem?: TPhotoProblem;
};

/**
 * An animal's photos in the back office (each button's name says which photo it acts on, its
 * visible words first, as WCAG's "label in name" asks): each with buttons to move it earlier or later and to
 * remove it (plain forms: no JavaScript needed), and the upload form below. The first photo is the
 * one on the animal's card.
 */
export const PhotoManager = ({ petId, name, photos, uploadToken, notice, problem }: TProps) => {
  const order = photos.map((photo) => photo.id);
  return (
    <section id="photos" className="panel photos" aria-labelledby="photos-title">
      <h2 id="photos-title" className="panel__title">
        Photos
      </h2>
      <p className="field__hint">
        Adopters see them in this order; the first is on {name}&rsquo;s card. Without photos, the
        drawing of the category shows.
      </p>
      {notice ? (
        <p className="notice" role="status">
          {PHOTO_NOTICES[notice]}
        </p>
      ) : null}
      {problem ? (
        <p className="form__error" role="alert">
          <CircleAlert aria-hidden="true" focusable="false" className="field__error-icon" />
          {PHOTO_PROBLEMS[problem]}
        </p>
      ) : null}
      {photos.length === 0 ? (
        <p className="photos__empty">No photos yet.</p>
      ) : (
        <ol className="photo-list" aria-label={`Photos of ${name}`}>
          {photos.map((photo, index) => {
            const view = photoView(photo, 160);
            const label = index === 0 ? 'Main photo' : `Photo ${index + 1}`;
            const which = `photo ${index + 1}`;
            return (
              <li key={photo.id} className="photo-list__item">
                <PhotoImage
                  view={view}
                  sizes="6rem"
                  alt={`${name}, ${which} of ${photos.length}`}
                  loading="lazy"
                  className="photo-list__image"
                />
                <span className="photo-list__label">{label}</span>
                <div className="photo-list__actions">
                  <form action={movePhoto.bind(null, petId, order, photo.id, 'earlier')}>
                    <button
                      type="submit"
                      className="button button--secondary button--small"
                      aria-label={`Move earlier: ${which}`}
                      disabled={index === 0}
                    >
                      <ArrowUp aria-hidden="true" focusable="false" className="button__icon" />
                      Move earlier
                    </button>
                  </form>
                  <form action={movePhoto.bind(null, petId, order, photo.id, 'later')}>
                    <button
                      type="submit"
                      className="button button--secondary button--small"
                      aria-label={`Move later: ${which}`}
                      disabled={index === photos.length - 1}
                    >
                      <ArrowDown aria-hidden="true" focusable="false" className="button__icon" />
                      Move later
                    </button>
                  </form>
                  <form action={removePhoto.bind(null, petId, photo.id)}>
                    <button
                      type="submit"
                      className="button button--secondary button--small"
                      aria-label={`Remove: ${which}`}
                    >
                      <Trash2 aria-hidden="true" focusable="false" className="button__icon" />
                      Remove
                    </button>
                  </form>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {photos.length < PET_PHOTOS_MAX ? (
        <PhotoUploadForm action={uploadPhoto.bind(null, petId, uploadToken)} />
      ) : (
        <p className="field__hint">
          {name} has {PET_PHOTOS_MAX} photos, the most an animal can have: remove one to add
          another.
        </p>
      )}
    </section>
  );
};
