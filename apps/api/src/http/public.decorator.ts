import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

export const IS_PUBLIC = 'pets:isPublic';
export const IS_KEYLESS = 'pets:isKeyless';

/** Marks a handler outside /v1 (health, docs) that needs no API key and is not rate limited. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Marks a /v1 handler that needs no API key (the OpenAPI document). It is still rate limited, per
 * client address with the Free numbers like any request without a valid key, and its responses
 * carry the rate-limit headers like every other /v1 response.
 */
export const Keyless = () => SetMetadata(IS_KEYLESS, true);

/** Whether the handler of this request works without an API key (@Public or @Keyless). */
export const isKeyOptional = (reflector: Reflector, context: ExecutionContext): boolean => {
  const handler = context.getHandler();
  return (
    reflector.get<boolean>(IS_PUBLIC, handler) === true ||
    reflector.get<boolean>(IS_KEYLESS, handler) === true
  );
};
