import { GET_PET_DEPRECATION, Header } from '@pets/contract';

/** Headers on every response of the deprecated `GET /v1/pets/{petId}`, errors included. */
export const GET_PET_DEPRECATION_HEADERS: Record<string, string> = {
  [Header.deprecation]: `@${Math.floor(GET_PET_DEPRECATION.deprecatedAt.getTime() / 1000)}`,
  [Header.sunset]: GET_PET_DEPRECATION.sunsetAt.toUTCString(),
  [Header.link]: `<${GET_PET_DEPRECATION.replacement}>; rel="successor-version"`,
};
