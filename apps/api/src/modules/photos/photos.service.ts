import { Inject, Injectable } from '@nestjs/common';
import {
  PET_PHOTOS_MAX,
  PHOTO_MAX_PIXELS,
  PHOTO_MAX_PIXELS_TEXT,
  PHOTO_WIDTHS,
  type TPetPhoto,
} from '@pets/contract';
import { isUnknownPet } from '@pets/store/errors';
import { PhotoLimitError, PhotoOrderError, PhotosRepository } from '@pets/store/photos.repository';
import type { Logger } from 'pino';
import { auditActorOf, type TCaller } from '../../api-keys/caller';
import { AppError } from '../../core/app-error';
import { serviceUnavailable } from '../../http/database-faults';
import { LOGGER } from '../../logging/logger';
import { ImageRejected, processImage, type TImageRejection } from './image-pipeline';
import { MEDIA_STORE, type TMediaStore } from './media-store';

const unknownPet = (petId: number) => new AppError('not_found', `No animal has id ${petId}.`);

const limitReached = () =>
  new AppError(
    'photo_limit_reached',
    `The animal already has ${PET_PHOTOS_MAX} photos; delete one before adding another.`,
  );

const rejectionError = (rejection: TImageRejection): AppError => {
  switch (rejection.reason) {
    case 'unsupported_type':
      return new AppError(
        'unsupported_media_type',
        'The file is not a JPEG, PNG or WebP image (its content was checked, not its declared type).',
      );
    case 'too_many_pixels':
      return new AppError(
        'image_too_large',
        `The image is ${rejection.width}×${rejection.height} pixels, more than ${PHOTO_MAX_PIXELS_TEXT}; send a smaller one.`,
      );
    case 'unreadable':
      return new AppError(
        'invalid_image',
        'The image cannot be read: the file is damaged or cut short. Nothing was stored.',
      );
  }
};

/**
 * The photo operations: the image is checked and made into its sizes once, at upload, before any
 * row is written; its files are stored, then the row is added (with the limit checked under the
 * animal's lock). If the row cannot be added, the files just written are deleted again. Deleting
 * a photo removes its row, then its files. A staff caller's changes are audited with their rows.
 */
@Injectable()
export class PhotosService {
  constructor(
    private readonly photos: PhotosRepository,
    @Inject(MEDIA_STORE) private readonly store: TMediaStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async add(caller: TCaller, petId: number, upload: Buffer): Promise<TPetPhoto> {
    // Cheap refusals first: no image work for an unknown animal or one that is full.
    if (!(await this.photos.petExists(petId))) {
      throw unknownPet(petId);
    }
    if ((await this.photos.countPhotos(petId)) >= PET_PHOTOS_MAX) {
      throw limitReached();
    }
    let processed: Awaited<ReturnType<typeof processImage>>;
    try {
      processed = await processImage(upload, {
        widths: PHOTO_WIDTHS,
        maxPixels: PHOTO_MAX_PIXELS,
        keyPrefix: `pets/${petId}`,
      });
    } catch (error) {
      if (error instanceof ImageRejected) {
        throw rejectionError(error.rejection);
      }
      throw error;
    }
    const keys = processed.files.map((file) => file.key);
    try {
      await Promise.all(
        processed.files.map((file) => this.store.put(file.key, file.bytes, 'image/webp')),
      ).catch((error: unknown) => {
        this.logger.error({ event: 'photo_store_failed', err: error }, 'photo files not stored');
        throw serviceUnavailable('The photo storage is not available; retry in a moment.');
      });
      return await this.photos.add(
        {
          petId,
          width: processed.width,
          height: processed.height,
          placeholder: processed.placeholder,
          sizes: processed.files.map(({ width, height, key }) => ({ width, height, key })),
        },
        PET_PHOTOS_MAX,
        auditActorOf(caller),
      );
    } catch (error) {
      await this.deleteFiles(keys, 'upload_not_saved');
      if (isUnknownPet(error)) {
        throw unknownPet(petId);
      }
      if (error instanceof PhotoLimitError) {
        throw limitReached();
      }
      throw error;
    }
  }

  async remove(caller: TCaller, petId: number, photoId: number): Promise<void> {
    let keys: string[] | undefined;
    try {
      keys = await this.photos.remove(petId, photoId, auditActorOf(caller));
    } catch (error) {
      throw isUnknownPet(error) ? unknownPet(petId) : error;
    }
    if (keys === undefined) {
      throw new AppError('not_found', `The animal ${petId} has no photo with id ${photoId}.`);
    }
    await this.deleteFiles(keys, 'photo_deleted');
  }

  async reorder(caller: TCaller, petId: number, photoIds: readonly number[]): Promise<TPetPhoto[]> {
    try {
      return await this.photos.reorder(petId, photoIds, auditActorOf(caller));
    } catch (error) {
      if (isUnknownPet(error)) {
        throw unknownPet(petId);
      }
      if (error instanceof PhotoOrderError) {
        throw new AppError(
          'photo_order_conflict',
          "photoIds must name each of the animal's photos once: read the animal again and resend.",
        );
      }
      throw error;
    }
  }

  /**
   * Deletes files whose row is gone (or never came). The answer does not wait on a failure
   * here: the row decides what exists, and the files left behind are named in an error line for
   * an operator to remove.
   */
  private async deleteFiles(keys: string[], reason: string): Promise<void> {
    try {
      await this.store.delete(keys);
    } catch (error) {
      this.logger.error(
        { event: 'photo_files_left', reason, keys, err: error },
        'photo files could not be deleted',
      );
    }
  }
}
