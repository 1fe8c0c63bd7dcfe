import { z } from 'zod';
import { MAX_CUSTOM_LIMIT } from '../rules/plans';

/** A custom limit (rpm or rpd): a whole number from 1 to MAX_CUSTOM_LIMIT, refused in words. */
export const ZCustomLimit = (flag: string) =>
  z
    .number({ invalid_type_error: `${flag} must be a whole number` })
    .int(`${flag} must be a whole number`)
    .min(1, `${flag} must be at least 1`)
    .max(MAX_CUSTOM_LIMIT, `${flag} is too large`);
