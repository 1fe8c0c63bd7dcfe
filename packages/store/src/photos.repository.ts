import type { TPetPhoto } from '@pets/contract';
import { prepare, sql } from '@pets/db';
import type { Pool, PoolClient } from 'pg';
import type { TAuditActor } from './audit.repository';
import { UnknownPetError } from './errors';
import { mediaUrl } from './media-url';
import { recordPetAudit, recordPetEvents } from './pets.repository';
import { withTransaction } from './transaction';

/**
 * The pet_photos table: every statement about photos and the row -> `TPetPhoto` mapping for the
 * photo operations (the Pet's photos are read by the pets repository, through the same
 * `mediaUrl`). Writes run in a transaction that first locks the animal's row, so that two
 * uploads, a delete and a reorder of one animal's photos happen one after the other (the limit
 * of 20 and the positions stay right), while other animals are not held up.
 */

/** One stored file of a photo, as the `sizes` column holds it. */
export type TStoredSize = { width: number; height: number; key: string };

export type TNewPhotoRow = {
  petId: number;
  width: number;
  height: number;
  placeholder: string;
  sizes: TStoredSize[];
};

type TPhotoRow = {
  id: string;
  width: number;
  height: number;
  placeholder: string;
  sizes: TStoredSize[];
};

const PHOTO_COLUMNS = ['id', 'width', 'height', 'placeholder', 'sizes'] as const;

/** The animal's row, locked until the transaction ends; no row: no such animal. */
const LOCK_PET = prepare((db, p: { petId: string }) =>
  db.selectFrom('pets').select('id').where('id', '=', p.petId).forUpdate(),
);

const PET_EXISTS = prepare((db, p: { petId: string }) =>
  db.selectFrom('pets').select('id').where('id', '=', p.petId),
);

const COUNT_PHOTOS = prepare((db, p: { petId: string }) =>
  db
    .selectFrom('pet_photos')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('pet_id', '=', p.petId),
);

/** Appended after the animal's last photo (positions are 0-based, gaps allowed). */
const INSERT_PHOTO = prepare(
  (db, p: { petId: string; width: number; height: number; placeholder: string; sizes: string }) =>
    db
      .insertInto('pet_photos')
      .values({
        pet_id: p.petId,
        position: sql<number>`(select coalesce(max(position) + 1, 0) from pet_photos where pet_id = ${p.petId})`,
        width: p.width,
        height: p.height,
        placeholder: p.placeholder,
        sizes: sql`${p.sizes}::jsonb`,
      })
      .returning(PHOTO_COLUMNS),
);

const DELETE_PHOTO = prepare((db, p: { petId: string; photoId: string }) =>
  db
    .deleteFrom('pet_photos')
    .where('id', '=', p.photoId)
    .where('pet_id', '=', p.petId)
    .returning(['sizes']),
);

const LIST_PHOTOS = prepare((db, p: { petId: string }) =>
  db
    .selectFrom('pet_photos')
    .select(PHOTO_COLUMNS)
    .where('pet_id', '=', p.petId)
    .orderBy('position')
    .orderBy('id'),
);

/** Each photo's position is its index in `ids` (every id is the animal's: checked before). */
const SET_ORDER = prepare((db, p: { petId: string; ids: readonly string[] }) =>
  db
    .updateTable('pet_photos')
    .set({ position: sql<number>`array_position(${p.ids}::bigint[], id) - 1` })
    .where('pet_id', '=', p.petId),
);

export class PhotoLimitError extends Error {}
export class PhotoOrderError extends Error {}

export class PhotosRepository {
  constructor(
    private readonly pool: Pool,
    /** MEDIA_BASE_URL (config.mediaBaseUrl): a key's public address is `<base>/<key>`. */
    private readonly mediaBaseUrl: string,
  ) {}

  private toPhoto = (row: TPhotoRow): TPetPhoto => ({
    id: Number(row.id),
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    sizes: row.sizes.map((size) => ({
      width: size.width,
      height: size.height,
      url: mediaUrl(this.mediaBaseUrl, size.key),
    })),
  });

  async petExists(petId: number): Promise<boolean> {
    const { rows } = await PET_EXISTS.execute(this.pool, { petId: String(petId) });
    return rows.length > 0;
  }

  async countPhotos(petId: number): Promise<number> {
    const { rows } = await COUNT_PHOTOS.execute(this.pool, { petId: String(petId) });
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Adds the photo after the animal's others, unless it has `max` already (PhotoLimitError) or
   * is gone (UnknownPetError). A staff `actor` is audited in the same transaction.
   */
  add(photo: TNewPhotoRow, max: number, actor?: TAuditActor): Promise<TPetPhoto> {
    const petId = String(photo.petId);
    return withTransaction(this.pool, async (client) => {
      await this.lockPet(client, petId);
      const { rows: counted } = await COUNT_PHOTOS.execute(client, { petId });
      if (Number(counted[0]?.count ?? 0) >= max) {
        throw new PhotoLimitError();
      }
      const { rows } = await INSERT_PHOTO.execute(client, {
        petId,
        width: photo.width,
        height: photo.height,
        placeholder: photo.placeholder,
        sizes: JSON.stringify(photo.sizes),
      });
      const added = this.toPhoto(rows[0] as TPhotoRow);
      const pet = await recordPetEvents(
        client,
        photo.petId,
        ['pet.photo_added'],
        this.mediaBaseUrl,
      );
      if (actor && pet) {
        await recordPetAudit(client, actor, 'pet.photo_added', pet.id, {
          name: pet.name,
          photoId: added.id,
        });
      }
      return added;
    });
  }

  /**
   * Removes the photo and answers the keys of its files (for the store to delete), or undefined
   * when the animal has no such photo. UnknownPetError when there is no such animal. A staff
   * `actor` is audited in the same transaction.
   */
  remove(petId: number, photoId: number, actor?: TAuditActor): Promise<string[] | undefined> {
    return withTransaction(this.pool, async (client) => {
      await this.lockPet(client, String(petId));
      const { rows } = await DELETE_PHOTO.execute(client, {
        petId: String(petId),
        photoId: String(photoId),
      });
      const row = rows[0] as { sizes: TStoredSize[] } | undefined;
      if (row) {
        const pet = await recordPetEvents(client, petId, ['pet.photo_removed'], this.mediaBaseUrl);
        if (actor && pet) {
          await recordPetAudit(client, actor, 'pet.photo_removed', petId, {
            name: pet.name,
            photoId,
          });
        }
      }
      return row?.sizes.map((size) => size.key);
    });
  }

  /**
   * Puts the animal's photos in the order of `photoIds`, which must name each of them once
   * (else PhotoOrderError, nothing changed), and answers them in that order. A staff `actor` is
   * audited in the same transaction.
   */
  reorder(petId: number, photoIds: readonly number[], actor?: TAuditActor): Promise<TPetPhoto[]> {
    const id = String(petId);
    return withTransaction(this.pool, async (client) => {
      await this.lockPet(client, id);
      const { rows } = await LIST_PHOTOS.execute(client, { petId: id });
      const current = new Set(rows.map((row) => Number(row.id)));
      if (current.size !== photoIds.length || photoIds.some((photoId) => !current.has(photoId))) {
        throw new PhotoOrderError();
      }
      await SET_ORDER.execute(client, { petId: id, ids: photoIds.map(String) });
      const pet = await recordPetEvents(client, petId, ['pet.updated'], this.mediaBaseUrl);
      if (actor && pet) {
        await recordPetAudit(client, actor, 'pet.photos_reordered', petId, { name: pet.name });
      }
      const byId = new Map(rows.map((row) => [Number(row.id), row as TPhotoRow]));
      return photoIds.map((photoId) => this.toPhoto(byId.get(photoId) as TPhotoRow));
    });
  }

  private async lockPet(client: PoolClient, petId: string): Promise<void> {
    const { rows } = await LOCK_PET.execute(client, { petId });
    if (rows.length === 0) {
      throw new UnknownPetError(Number(petId));
    }
  }
}
