import { contract, GET_PET_DEPRECATION, Header } from '@pets/contract';

/**
 * Headers on every response of the deprecated `GET /v1/pets/{petId}`, errors included:
 * `Deprecation`, `Sunset`, and a `Link` to its replacement for this very animal, listPets with the
 * `id` filter (`/v1/pets?id=42`).
 */
const DEPRECATION = `@${Math.floor(GET_PET_DEPRECATION.deprecatedAt.getTime() / 1000)}`;
const SUNSET = GET_PET_DEPRECATION.sunsetAt.toUTCString();
const REPLACEMENT = contract.pets.listPets.path;

/** The replacement of `GET /v1/pets/{petId}` for that petId: `/v1/pets?id=<petId>`. */
export const successorOf = (petId: string): string =>
  `${REPLACEMENT}?id=${encodeURIComponent(petId)}`;

/** `params` as Fastify routed them (`petId` is the path segment as sent, decoded). */
export const getPetDeprecationHeaders = (params: unknown): Record<string, string> => ({
  [Header.deprecation]: DEPRECATION,
  [Header.sunset]: SUNSET,
  [Header.link]: `<${successorOf(String((params as { petId?: unknown }).petId ?? ''))}>; rel="successor-version"`,
});
