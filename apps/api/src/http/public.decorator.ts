import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pets:isPublic';

/** Marks a handler outside /v1 (health, docs) that needs no API key and is not rate limited. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
