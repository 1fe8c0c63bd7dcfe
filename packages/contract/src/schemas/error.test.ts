import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, ZError, ZErrorCode } from './error';

describe('error codes', () => {
  it('maps every code to exactly one HTTP status', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ZErrorCode.options].sort());
  });

  it('names the statuses of the spec', () => {
    expect(ERROR_STATUS.invalid_request).toBe(400);
    expect(ERROR_STATUS.unauthorized).toBe(401);
    expect(ERROR_STATUS.not_found).toBe(404);
    expect(ERROR_STATUS.rate_limited).toBe(429);
    expect(ERROR_STATUS.api_key_banned).toBe(429);
  });

  it('requires code, message and status in the body', () => {
    expect(ZError.safeParse({ code: 'not_found', message: 'No pet 3', status: 404 }).success).toBe(
      true,
    );
    expect(ZError.safeParse({ code: 'not_found', message: 'No pet 3' }).success).toBe(false);
    expect(ZError.safeParse({ code: 'teapot', message: 'x', status: 418 }).success).toBe(false);
  });
});
