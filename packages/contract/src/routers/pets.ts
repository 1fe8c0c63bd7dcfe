import { type ContractNoBodyType, initContract } from '@ts-rest/core';
import type { SchemaObject } from 'openapi3-ts';
import { Header } from '../headers';
import { BODY_LIMIT_TEXT } from '../rules/body-limit';
import {
  PET_PHOTOS_MAX,
  PHOTO_FORM_FIELD,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_BYTES_TEXT,
  PHOTO_MAX_PIXELS_TEXT,
  PHOTO_MEDIA_TYPES,
  PHOTO_WIDTHS,
} from '../rules/photo-limit';
import { ZListPetsQuery, ZNewPet, ZPet, ZPetIdParams, ZPets, ZPetUpdate } from '../schemas/pet';
import { ZPetPhoto, ZPetPhotoOrder, ZPetPhotoParams, ZPetPhotos } from '../schemas/photo';
import { notModified } from './conditional';
import { errors } from './errors';
import { idempotent } from './idempotent';
import type { TRouteMetadata } from './metadata';

const c = initContract();
const NO_BODY: ContractNoBodyType = c.noBody();

const FORBIDDEN_OWN_PET =
  'The key is read-only, or it is a partner key and the animal was not created with it: a ' +
  "partner changes the photos of its own animals only, staff any animal's (`forbidden`).";
const PHOTO_TYPES_TEXT = 'JPEG, PNG or WebP';

/** The bytes of an uploaded image, as the document describes them. */
const IMAGE_BYTES: SchemaObject = {
  type: 'string',
  format: 'binary',
  maxLength: PHOTO_MAX_BYTES,
  description: `A ${PHOTO_TYPES_TEXT} image, at most ${PHOTO_MAX_BYTES_TEXT} and ${PHOTO_MAX_PIXELS_TEXT}.`,
};

export const petsRouter = c.router({
  listPets: {
    method: 'GET',
    path: '/pets',
    summary: 'List animals',
    description:
      'Animals, newest first (or in the `sort` order: `oldest`, `name`, `arrived`, ' +
      '`updatedAt`), at most `limit` of them, each with its profile and photos. Filter with ' +
      '`status`, `categoryId`, `id` (one id or a comma-separated list: how to fetch animals by ' +
      'id), `sex`, `age`, `size`, the `name` search and the details: `goodWithChildren`, ' +
      '`goodWithDogs`, `goodWithCats`, `houseTrained`, `spayedNeutered`, `vaccinated` and ' +
      '`specialNeeds` (each `true` or `false`), `energyLevel`, `coatLength`, and the fee ' +
      '(`feeMax` with `feeCurrency`); filters combine. A yes/no filter matches only what the ' +
      'store knows: `goodWithCats=true` lists the animals known to get on with cats, leaving out ' +
      'those known not to and those nobody has said (`null`); `goodWithCats=false` lists only ' +
      'those known not to. `feeMax` leaves out the animals whose fee is unknown and those whose ' +
      'fee is in another currency; a free adoption (`0`) is within any `feeMax`. When more ' +
      'animals match, the `Link` header carries a `rel="next"` address with an opaque `cursor`, ' +
      'which keeps the filters and the sort. With `include=total_count`, the `X-Total-Count` ' +
      'header tells how many animals match in all.',
    query: ZListPetsQuery,
    responses: {
      ...notModified,
      200: ZPets,
      ...errors(400),
    },
    metadata: {
      responseHeaders: { 200: [Header.link, Header.totalCount] },
    } satisfies TRouteMetadata,
  },
  createPet: idempotent({
    method: 'POST',
    path: '/pets',
    summary: 'Add an animal',
    description:
      'Publishes a new animal. `status` defaults to `available`; the profile (`description`, ' +
      '`sex`, `age`, `size`, `breed`, `arrivedAt`) is optional, each field `null` when left ' +
      'out, and the animal starts without photos (add them with `addPetPhoto`). The body must be ' +
      `\`application/json\`, at most ${BODY_LIMIT_TEXT}. Safe to retry with an ` +
      '`Idempotency-Key`.',
    body: ZNewPet,
    responses: {
      201: ZPet,
      ...errors(400, 403, 413, 415),
    },
    metadata: {
      responseHeaders: { 201: [Header.location] },
      responseDescriptions: {
        403:
          'The key is read-only, or it is a partner key and `status` is not `available`: a ' +
          'partner publishes animals as `available`, only the store sets an animal aside or ' +
          'marks it adopted (`forbidden`).',
      },
      partnerLimits: { bodyValues: { status: ['available'] } },
    } satisfies TRouteMetadata,
  }),
  getPet: {
    method: 'GET',
    path: '/pets/:petId',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated: announced for removal on 5 December 2030. Its replacement is `GET /v1/pets` ' +
      'with the `id` filter: `GET /v1/pets?id={petId}` answers `200` with a list of that one ' +
      'animal, or an empty list where this operation answers `404`. Every response carries ' +
      '`Deprecation`, `Sunset` and `Link: </v1/pets?id={petId}>; rel="successor-version"`.',
    deprecated: true,
    pathParams: ZPetIdParams,
    responses: {
      ...notModified,
      200: ZPet,
      ...errors(400, 404),
    },
    metadata: {
      deprecated: true,
      responseHeaders: { all: [Header.deprecation, Header.sunset, Header.link] },
    } satisfies TRouteMetadata,
  },
  updatePet: {
    method: 'PATCH',
    path: '/pets/:petId',
    summary: 'Change an animal (staff)',
    description:
      'Changes any of `name`, `categoryId`, `status` and the profile (`description`, `sex`, ' +
      '`age`, `size`, `breed`, `arrivedAt`); fields left out keep their value, a profile field ' +
      'sent as `null` is cleared, and `{}` changes nothing (the animal is answered as it is). ' +
      'Photos have their own operations. Staff keys only. While the animal is on hold for an ' +
      'approved adoption order it stays ' +
      '`pending`: another `status` is `409 pet_status_conflict` (decline, cancel or complete ' +
      'the order instead); applications in review do not tie its status. With `If-Match` (the ' +
      '`ETag` of the animal as you read it) the change is made only if nobody changed the animal ' +
      'since: otherwise `412 precondition_failed` and nothing changes. The body ' +
      `must be \`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    pathParams: ZPetIdParams,
    body: ZPetUpdate,
    responses: {
      200: ZPet,
      ...errors(400, 403, 404, 409, 412, 413, 415),
    },
    metadata: {
      requiredRole: 'staff',
      responseDescriptions: {
        403: 'The key is not a staff key, or is read-only (`forbidden`).',
        409: 'The new `status` contradicts the approved adoption order that holds the animal (`pet_status_conflict`).',
        412: 'The `If-Match` does not name the current version of the animal: it changed since it was read (`precondition_failed`). Nothing changed.',
      },
    } satisfies TRouteMetadata,
  },
  addPetPhoto: idempotent({
    method: 'POST',
    path: '/pets/:petId/photos',
    summary: 'Add a photo of an animal',
    description:
      `Adds a photo after the animal's others (at most ${PET_PHOTOS_MAX}). Send the image ` +
      `itself as the body (\`Content-Type: image/jpeg\`, \`image/png\` or \`image/webp\`), or ` +
      `a \`multipart/form-data\` form whose one file field is \`${PHOTO_FORM_FIELD}\`. The ` +
      `image must be ${PHOTO_TYPES_TEXT}, told from its bytes (the declared type is not ` +
      `trusted), at most ${PHOTO_MAX_BYTES_TEXT} and ${PHOTO_MAX_PIXELS_TEXT}. The service ` +
      'turns it upright, removes every metadata (camera, GPS position), and makes WebP files ' +
      `${PHOTO_WIDTHS.join(', ')} pixels wide (never wider than the image) and a ThumbHash ` +
      'placeholder, once. Answers the photo, as it appears in the Pet. Staff keys and partner ' +
      'keys that may write. Safe to retry with an `Idempotency-Key`.',
    contentType: 'multipart/form-data',
    pathParams: ZPetIdParams,
    body: c.type<{ [PHOTO_FORM_FIELD]: Blob }>(),
    responses: {
      201: ZPetPhoto,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      bodyLimitBytes: PHOTO_MAX_BYTES,
      requestBody: {
        description:
          `The image (${PHOTO_TYPES_TEXT}, at most ${PHOTO_MAX_BYTES_TEXT}), as the body itself ` +
          `or as the file field \`${PHOTO_FORM_FIELD}\` of a form.`,
        content: {
          ...Object.fromEntries(PHOTO_MEDIA_TYPES.map((type) => [type, { schema: IMAGE_BYTES }])),
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [PHOTO_FORM_FIELD],
              properties: { [PHOTO_FORM_FIELD]: IMAGE_BYTES },
              additionalProperties: false,
            },
            encoding: { [PHOTO_FORM_FIELD]: { contentType: PHOTO_MEDIA_TYPES.join(', ') } },
          },
        },
      },
      responseHeaders: { 201: [Header.location] },
      responseDescriptions: {
        400:
          'The image is damaged or cannot be read (`invalid_image`), or the request is not ' +
          `as described: a bad \`petId\`, a form without exactly one \`${PHOTO_FORM_FIELD}\` ` +
          'file (`invalid_request`).',
        403: FORBIDDEN_OWN_PET,
        404: 'No animal has this id (`not_found`).',
        409:
          `The animal already has ${PET_PHOTOS_MAX} photos (\`photo_limit_reached\`): delete ` +
          'one first. Or another request with the same `Idempotency-Key` is still in progress ' +
          '(`idempotency_key_in_use`): retry after a moment.',
        413:
          `The body is larger than ${PHOTO_MAX_BYTES_TEXT} (\`payload_too_large\`), or the ` +
          `image has more than ${PHOTO_MAX_PIXELS_TEXT} (\`image_too_large\`).`,
        415:
          `The body is neither a ${PHOTO_TYPES_TEXT} image nor a \`multipart/form-data\` form, ` +
          `or its bytes are not ${PHOTO_TYPES_TEXT} whatever its declared type ` +
          '(`unsupported_media_type`).',
      },
      partnerLimits: { ownPetOnly: true },
    } satisfies TRouteMetadata,
  }),
  deletePetPhoto: {
    method: 'DELETE',
    path: '/pets/:petId/photos/:photoId',
    summary: 'Remove a photo of an animal',
    description:
      "Removes the photo from the animal and deletes its files; the animal's other photos keep " +
      'their order. Staff keys and partner keys that may write.',
    pathParams: ZPetPhotoParams,
    body: NO_BODY,
    responses: {
      204: NO_BODY,
      // No body is read, but one sent is still checked: too large, or not JSON.
      ...errors(400, 403, 404, 413, 415),
    },
    metadata: {
      responseDescriptions: {
        204: 'Removed.',
        403: FORBIDDEN_OWN_PET,
        404: 'No animal has this id, or it has no photo with this id (`not_found`).',
      },
      partnerLimits: { ownPetOnly: true },
    } satisfies TRouteMetadata,
  },
  reorderPetPhotos: {
    method: 'PUT',
    path: '/pets/:petId/photos/order',
    summary: 'Reorder the photos of an animal',
    description:
      'Sets the order of the photos: `photoIds` names every photo of the animal once, the ' +
      'first becoming its main photo. Answers the photos in their new order. Sending the same ' +
      'order again changes nothing. Staff keys and partner keys that may write. The body must ' +
      `be \`application/json\`, at most ${BODY_LIMIT_TEXT}.`,
    pathParams: ZPetIdParams,
    body: ZPetPhotoOrder,
    responses: {
      200: ZPetPhotos,
      ...errors(400, 403, 404, 409, 413, 415),
    },
    metadata: {
      responseDescriptions: {
        403: FORBIDDEN_OWN_PET,
        404: 'No animal has this id (`not_found`).',
        409:
          "`photoIds` is not exactly the animal's photos: one is missing, or one is not the " +
          "animal's (`photo_order_conflict`; read the animal again and resend).",
      },
      partnerLimits: { ownPetOnly: true },
    } satisfies TRouteMetadata,
  },
});
