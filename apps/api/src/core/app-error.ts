import { ERROR_STATUS, type TError, type TErrorCode, type TErrorDetail } from '@pets/contract';

/**
 * The one error type of the API. Anything thrown as an AppError reaches the client as the spec's
 * `{ code, message, status }` body, with the status taken from the code (see docs/errors.md);
 * anything else becomes a generic `internal_error`.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly details?: TErrorDetail[],
    /** Extra response headers, e.g. `Allow` on a 405. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  toBody(): TError {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      ...(this.details?.length ? { details: this.details } : {}),
    };
  }
}

export const invalidRequest = (field: string, message: string): AppError =>
  new AppError('invalid_request', `${field}: ${message}`, [{ field, message }]);
