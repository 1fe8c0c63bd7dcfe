import { z } from 'zod';
import { CONDITION_HEADER_MAX_LENGTH } from '../rules/etag';

/**
 * An `If-None-Match` or `If-Match` value as the API accepts it: the length the OpenAPI document
 * declares, else a `400` on the header. What a value within it names is the condition's to judge
 * (rules/etag.ts): one that names no version fails the condition (a `200`, a `412`), it is not
 * malformed.
 */
export const ZConditionHeader = z
  .string({ invalid_type_error: 'must be given once' })
  .min(1, 'must not be empty: send an ETag, or leave the header out')
  .max(
    CONDITION_HEADER_MAX_LENGTH,
    `must be at most ${CONDITION_HEADER_MAX_LENGTH} characters: send the ETag you have, or a few of them`,
  );
