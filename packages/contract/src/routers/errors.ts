import { ZError } from '../schemas/error';

/**
 * The error answers an operation lists beside the contract's common ones (401, 408, 429, 431,
 * 5xx): each has the error body. `...errors(400, 404)` in a route's `responses`.
 */
export const errors = <const TStatus extends number>(
  ...statuses: TStatus[]
): { [S in TStatus]: typeof ZError } =>
  Object.fromEntries(statuses.map((status) => [status, ZError])) as {
    [S in TStatus]: typeof ZError;
  };
