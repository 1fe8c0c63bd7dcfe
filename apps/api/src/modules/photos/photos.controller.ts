import { Controller } from '@nestjs/common';
import { contract } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { uploadedFileOf } from '../../http/upload-body';
import { PhotosService } from './photos.service';

/** The photo operations of the pets router (the others are PetsController's). */
export const PHOTO_ROUTES = {
  addPetPhoto: contract.pets.addPetPhoto,
  deletePetPhoto: contract.pets.deletePetPhoto,
  reorderPetPhotos: contract.pets.reorderPetPhotos,
};

/**
 * Who may call these is the contract's (no required role: staff keys and partner keys that may
 * write; AdmissionGuard refuses a read-only key with 403 before the body is read).
 */
@Controller()
export class PhotosController {
  constructor(private readonly photos: PhotosService) {}

  @TsRestHandler(PHOTO_ROUTES)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(PHOTO_ROUTES, {
      addPetPhoto: async ({ params, body }) => {
        const photo = await this.photos.add(caller, params.petId, uploadedFileOf(body).bytes);
        setHeader('location', `${contract.pets.listPets.path}/${params.petId}/photos/${photo.id}`);
        return { status: 201, body: photo };
      },

      deletePetPhoto: async ({ params }) => {
        await this.photos.remove(caller, params.petId, params.photoId);
        return { status: 204, body: undefined };
      },

      reorderPetPhotos: async ({ params, body }) => ({
        status: 200,
        body: await this.photos.reorder(caller, params.petId, body.photoIds),
      }),
    });
  }
}
